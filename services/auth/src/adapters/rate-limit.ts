// The RateLimit port on rate-limiter-flexible: counts login and reset attempts per key (account, address).
// RateLimiterMemory suits the embedded default, where one auth instance sees every attempt. With several
// auth replicas the counts must be shared: RateLimiterPostgres (same options plus a pg client and table)
// is the drop-in, as consume/delete and RateLimiterRes behave the same.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit } from '../domain/ports.ts';

export interface RateLimitOptions {
  /** Attempts allowed per key within one window. */
  points: number;
  /** Length of the counting window. */
  durationSeconds: number;
  /**
   * How long a key that went over stays refused. Always finite, so a burst of failures from someone else
   * never locks the legitimate owner out for good.
   */
  blockSeconds: number;
}

export function createRateLimit(options: RateLimitOptions): RateLimit {
  const { points, durationSeconds, blockSeconds } = options;
  // rate-limiter-flexible reads 0 as "never expires": a zero window or block would mean forever.
  for (const [name, value] of Object.entries({ points, durationSeconds, blockSeconds })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(`Rate limit ${name} must be a positive whole number, got ${value}`);
    }
  }
  const limiter = new RateLimiterMemory({ points, duration: durationSeconds, blockDuration: blockSeconds });

  async function consume(key: string): Promise<number> {
    try {
      await limiter.consume(key);
      return 0;
    } catch (refusal) {
      // Over the limit the limiter rejects with its result; anything else is a real fault.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      // At least one second: a refusal must never read as "go ahead" (0).
      return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
    }
  }

  return {
    async attempt(keys) {
      // Every key is counted even when another is already over, so each limit sees every attempt.
      const waits = await Promise.all(unique(keys).map(consume));
      return Math.max(0, ...waits);
    },

    async blocked(keys) {
      const states = await Promise.all(unique(keys).map((key) => limiter.get(key)));
      const waits = states.map((state) =>
        state && state.consumedPoints >= points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0,
      );
      return Math.max(0, ...waits);
    },

    async reset(keys) {
      await Promise.all(unique(keys).map((key) => limiter.delete(key)));
    },
  };
}

// The same key twice in one call is one attempt, not two.
const unique = (keys: string[]) => [...new Set(keys)];
