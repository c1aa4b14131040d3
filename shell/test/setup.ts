// Test set-up: jsdom lacks the <dialog> methods, and every test starts logged out with a clean DOM.
import { clearSession } from '@rotunda/session';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { useUi } from '../src/ui';

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
  useUi.setState({ accessAlertId: null, toast: null, dialog: null, mobileNavOpen: false });
  localStorage.clear();
});
