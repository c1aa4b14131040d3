// Test set-up: jsdom lacks the <dialog> methods; the ALTCHA widget (proof of work in a Web Worker) is
// replaced by a stand-in the tests can 'solve'; every test starts logged out with a clean DOM and no stubs.
import { resetSession } from '@rotunda/session/testing';
import { fillInDialog } from '@rotunda/ui/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetAppConfig } from '../src/config';
import { useModeration } from '../src/moderation';
import { useUi } from '../src/ui';

vi.mock('../src/auth/Captcha', () => import('./fake-captcha'));

fillInDialog();

afterEach(() => {
  cleanup();
  resetSession();
  useUi.setState({ notice: null, toast: null, dialog: null, mobileNavOpen: false });
  resetAppConfig();
  useModeration.setState({ suspension: null, openItems: null });
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
