// Test set-up: jsdom has no IntersectionObserver, so a stand-in the tests drive through `intersect` is put in
// its place; every test starts signed out, with a clean DOM and no stubbed globals.
import { resetSession } from '@rotunda/session/testing';
import { FakeIntersectionObserver } from '@rotunda/ui/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

FakeIntersectionObserver.install();

afterEach(() => {
  cleanup();
  resetSession();
  FakeIntersectionObserver.reset();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});
