// The feed version's rules on a store played in memory: a replica moves it once as it starts, counted reads move
// it at most once per interval, and a move that failed after its write committed is made again by the ticker
// instead of failing the write.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFeedVersion } from '../src/domain/feed-version.ts';

afterEach(() => vi.useRealTimers());

function memoryStore() {
  const store = {
    version: 0,
    failing: false,
    async bump() {
      if (store.failing) throw new Error('database unreachable');
      return ++store.version;
    },
    async current() {
      return store.version;
    },
  };
  return store;
}

describe('createFeedVersion', () => {
  it('moves once at start, then once per interval however many reads were counted, and not when none were', async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const feed = createFeedVersion(store, 1000);
    await feed.start(() => {});
    expect(store.version).toBe(1);
    for (let i = 0; i < 50; i++) feed.readCounted();
    expect(store.version).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.version).toBe(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(store.version).toBe(2);
    feed.readCounted();
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.version).toBe(3);
    feed.stop();
  });

  it('does not fail a committed write when the move fails: it reports it and the ticker moves it later', async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const errors: unknown[] = [];
    const feed = createFeedVersion(store, 1000);
    await feed.start((error) => errors.push(error));
    store.failing = true;
    await expect(feed.changed()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toHaveLength(2);
    store.failing = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.version).toBe(2);
    expect(await feed.current()).toBe(2);
    feed.stop();
  });
});
