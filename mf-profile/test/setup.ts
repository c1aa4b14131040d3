// Test set-up: jsdom has no <dialog> methods, so stand-ins open and close it the way a browser's do; every
// test starts signed out, with a clean DOM and no stubbed globals.
import { resetSession } from '@rotunda/session/testing';
import { fillInDialog } from '@rotunda/ui/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

fillInDialog();

afterEach(() => {
  cleanup();
  resetSession();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});
