// The rate limit refuses a key over its budget for a bounded time, per key, and forgets on reset.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimit } from '../src/adapters/rate-limit.ts';

// rate-limiter-flexible's memory store times windows with Date.now and setTimeout, both faked here.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const limitOf = () => createRateLimit({ points: 3, durationSeconds: 60, blockSeconds: 300 });

async function attempts(limit: ReturnType<typeof createRateLimit>, keys: string[], times: number) {
  const waits: number[] = [];
  for (let i = 0; i < times; i += 1) waits.push(await limit.attempt(keys));
  return waits;
}

describe('createRateLimit', () => {
  it('answers 0 within the limit', async () => {
    expect(await attempts(limitOf(), ['account:a'], 3)).toEqual([0, 0, 0]);
  });

  it('answers the whole seconds to wait once over, at most blockSeconds', async () => {
    const limit = limitOf();
    await attempts(limit, ['account:a'], 3);
    expect(await limit.attempt(['account:a'])).toBe(300);
    vi.advanceTimersByTime(1_500);
    // 298.5 s left: rounded up, never down to a wait that is too short.
    expect(await limit.attempt(['account:a'])).toBe(299);
  });

  it('keeps a key blocked only blockSeconds, even while attempts continue', async () => {
    const limit = limitOf();
    await attempts(limit, ['account:a'], 4);
    for (let second = 0; second < 299; second += 1) {
      vi.advanceTimersByTime(1_000);
      expect(await limit.attempt(['account:a'])).toBeGreaterThan(0);
    }
    vi.advanceTimersByTime(1_000);
    expect(await limit.attempt(['account:a'])).toBe(0);
  });

  it('lets a key through again after a real one-second block', async () => {
    vi.useRealTimers();
    const limit = createRateLimit({ points: 1, durationSeconds: 1, blockSeconds: 1 });
    expect(await limit.attempt(['account:a'])).toBe(0);
    expect(await limit.attempt(['account:a'])).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await limit.attempt(['account:a'])).toBe(0);
  });

  it('starts a fresh window after durationSeconds when the key never went over', async () => {
    const limit = limitOf();
    await attempts(limit, ['account:a'], 3);
    vi.advanceTimersByTime(60_000);
    expect(await attempts(limit, ['account:a'], 3)).toEqual([0, 0, 0]);
  });

  it('reset clears a blocked key', async () => {
    const limit = limitOf();
    await attempts(limit, ['account:a', 'address:1.2.3.4'], 4);
    expect(await limit.attempt(['account:a'])).toBeGreaterThan(0);
    await limit.reset(['account:a', 'address:1.2.3.4']);
    expect(await limit.attempt(['account:a', 'address:1.2.3.4'])).toBe(0);
  });

  it('counts account and address independently and answers the longest wait', async () => {
    const limit = createRateLimit({ points: 2, durationSeconds: 60, blockSeconds: 100 });
    // The address fails against three accounts; each account alone stays within its budget.
    expect(await limit.attempt(['account:a', 'address:x'])).toBe(0);
    expect(await limit.attempt(['account:b', 'address:x'])).toBe(0);
    expect(await limit.attempt(['account:c', 'address:x'])).toBe(100);
    // account:c was still counted, and is fine from another address.
    expect(await limit.attempt(['account:c', 'address:y'])).toBe(0);
    expect(await limit.attempt(['account:c', 'address:z'])).toBe(100);
    vi.advanceTimersByTime(40_000);
    // Both blocked at the same moment: 60 s left on each, and more attempts do not extend the block.
    expect(await limit.attempt(['account:c', 'address:x'])).toBe(60);
    expect(await limit.attempt(['account:d', 'address:x'])).toBe(60);
    expect(await limit.attempt(['account:d', 'address:w'])).toBe(0);
  });

  it('answers the larger of two different waits', async () => {
    const limit = createRateLimit({ points: 1, durationSeconds: 60, blockSeconds: 100 });
    await attempts(limit, ['address:x'], 2);
    vi.advanceTimersByTime(30_000);
    await attempts(limit, ['account:a'], 2);
    // address:x has 70 s left, account:a 100 s.
    expect(await limit.attempt(['address:x', 'account:a'])).toBe(100);
    expect(await limit.attempt(['address:x'])).toBe(70);
  });

  it('counts a key named twice in one attempt once', async () => {
    const limit = limitOf();
    expect(await attempts(limit, ['account:a', 'account:a'], 3)).toEqual([0, 0, 0]);
  });

  it('answers 0 for no keys', async () => {
    expect(await limitOf().attempt([])).toBe(0);
  });

  it('refuses settings that would block forever or never count', () => {
    expect(() => createRateLimit({ points: 3, durationSeconds: 60, blockSeconds: 0 })).toThrow(
      /blockSeconds/,
    );
    expect(() => createRateLimit({ points: 3, durationSeconds: 0, blockSeconds: 60 })).toThrow(
      /durationSeconds/,
    );
    expect(() => createRateLimit({ points: 0, durationSeconds: 60, blockSeconds: 60 })).toThrow(/points/);
    expect(() => createRateLimit({ points: 3, durationSeconds: 1.5, blockSeconds: 60 })).toThrow(
      /durationSeconds/,
    );
  });

  it('tells whether a key has no attempt left, without counting one', async () => {
    const limit = createRateLimit({ points: 2, durationSeconds: 60, blockSeconds: 30 });
    expect(await limit.blocked(['account:q'])).toBe(0);
    await limit.attempt(['account:q']);
    expect(await limit.blocked(['account:q'])).toBe(0);
    expect(await limit.blocked(['account:q'])).toBe(0);
    await limit.attempt(['account:q']);
    const wait = await limit.blocked(['account:q', 'address:free']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });
});
