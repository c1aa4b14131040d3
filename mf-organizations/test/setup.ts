// Test set-up: jsdom has neither the <dialog> methods nor IntersectionObserver, so both are stood in for
// (the observer is driven by the tests through `intersect`); every test starts signed out, with a clean DOM
// and no stubbed globals.
import { resetSession } from '@rotunda/session/testing';
import { FakeIntersectionObserver, fillInDialog } from '@rotunda/ui/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

fillInDialog();
FakeIntersectionObserver.install();

afterEach(() => {
  cleanup();
  resetSession();
  FakeIntersectionObserver.reset();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});
