// Test set-up: jsdom has neither the <dialog> methods nor IntersectionObserver, so both are stood in for
// (the observer is driven by the tests through `intersect`); every test starts signed out, with a clean DOM
// and no stubbed globals.
import { clearSession } from '@rotunda/session';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { FakeIntersectionObserver } from './support/intersection';

if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}

globalThis.IntersectionObserver = FakeIntersectionObserver as unknown as typeof IntersectionObserver;

afterEach(() => {
  cleanup();
  clearSession();
  localStorage.clear();
  FakeIntersectionObserver.reset();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});
