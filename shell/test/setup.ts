// Test set-up: jsdom lacks the <dialog> methods; the ALTCHA widget (proof of work in a Web Worker) is
// replaced by a stand-in the tests can 'solve'; every test starts logged out with a clean DOM and no stubs.
import { clearSession } from '@rotunda/session';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetAppConfig } from '../src/config';
import { useUi } from '../src/ui';

vi.mock('../src/auth/Captcha', () => import('./fake-captcha'));

if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}

afterEach(() => {
  cleanup();
  clearSession();
  useUi.setState({ notice: null, toast: null, dialog: null, mobileNavOpen: false });
  localStorage.clear();
  resetAppConfig();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
