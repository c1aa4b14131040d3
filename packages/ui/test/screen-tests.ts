// The set-up the micro-frontends' component tests share (each app's test/setup.ts calls it): jsdom's missing
// <dialog> methods and IntersectionObserver stood in for, and every test starting signed out, with a clean DOM,
// no stubbed globals, real timers and no spies left.
import { resetSession } from '@rotunda/session/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { fillInDialog } from './dialog';
import { FakeIntersectionObserver } from './intersection';

export function setUpScreenTests(): void {
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
}
