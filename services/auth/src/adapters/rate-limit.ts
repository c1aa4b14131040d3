// The throttles on rate-limiter-flexible's RateLimiterPrisma: every count lives in the auth schema's rate_limits
// table, so all auth replicas count together. Two kinds: a fixed window (so many events per key per window,
// then a wait until the window ends) and a growing delay (a few free failures, then a wait that doubles with
// each further failure, up to a cap). Keys are stored as SHA-256 hashes: no email or address in the table.
import { createHash } from 'node:crypto';
import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { GrowingDelay, RateLimit } from '../domain/ports.ts';

/** rate-limiter-flexible reaches the table through the Prisma Client property of its model. */
const MODEL = 'rateLimit';

export interface WindowLimitOptions {
  /** Tells this limit's keys apart from every other limit's in the shared table. */
  name: string;
  /** Events allowed per key within one window. */
  points: number;
  /** Length of the window, from the key's first event. */
  windowSeconds: number;
}

export interface GrowingDelayOptions {
  name: string;
  /** Failures that cost nothing. */
  freeFailures: number;
  /** The wait after the first failure beyond the free ones; each further failure doubles it. */
  firstDelaySeconds: number;
  /** The longest wait: never a permanent lock. */
  maxDelaySeconds: number;
  /** Failures are forgotten this long after the first one (or at reset). */
  memorySeconds: number;
}

function requirePositiveWholeNumbers(values: Record<string, number>): void {
  // rate-limiter-flexible reads 0 as "never expires": a zero window would mean forever.
  for (const [name, value] of Object.entries(values)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(`Rate limit ${name} must be a positive whole number, got ${value}`);
    }
  }
}

const hashed = (key: string) => createHash('sha256').update(key).digest('hex');

/** Whole seconds, at least one: a wait must never read as "go ahead" (0). */
const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function limiter(prisma: PrismaClient, keyPrefix: string, points: number, durationSeconds: number) {
  return new RateLimiterPrisma({
    storeClient: prisma,
    tableName: MODEL,
    keyPrefix,
    points,
    duration: durationSeconds,
  });
}

export function createWindowLimit(prisma: PrismaClient, options: WindowLimitOptions): RateLimit {
  const { points, windowSeconds } = options;
  requirePositiveWholeNumbers({ points, windowSeconds });
  const counts = limiter(prisma, options.name, points, windowSeconds);

  return {
    async attempt(key) {
      try {
        await counts.consume(hashed(key));
        return 0;
      } catch (refusal) {
        // Over the limit the limiter rejects with its result; anything else is a real fault.
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return secondsOf(refusal.msBeforeNext);
      }
    },

    async blocked(key) {
      const state = await counts.get(hashed(key));
      return state && state.consumedPoints >= points ? secondsOf(state.msBeforeNext) : 0;
    },
  };
}

export function createGrowingDelay(prisma: PrismaClient, options: GrowingDelayOptions): GrowingDelay {
  const { freeFailures, firstDelaySeconds, maxDelaySeconds, memorySeconds } = options;
  requirePositiveWholeNumbers({ freeFailures, firstDelaySeconds, maxDelaySeconds, memorySeconds });
  if (maxDelaySeconds < firstDelaySeconds) {
    throw new Error('Rate limit maxDelaySeconds must be at least firstDelaySeconds');
  }
  // The failures counted in the current memory window; penalty() counts without ever refusing.
  const failures = limiter(prisma, `${options.name}:failures`, Number.MAX_SAFE_INTEGER, memorySeconds);
  // The wait the last failure set: block() marks the key over its one point until the wait ends.
  const pauses = limiter(prisma, `${options.name}:pause`, 1, maxDelaySeconds);

  const delayAfter = (count: number) =>
    count <= freeFailures
      ? 0
      : Math.min(maxDelaySeconds, firstDelaySeconds * 2 ** Math.min(count - freeFailures - 1, 30));

  return {
    async wait(key) {
      const state = await pauses.get(hashed(key));
      return state && state.consumedPoints > 1 && state.msBeforeNext > 0 ? secondsOf(state.msBeforeNext) : 0;
    },

    async fail(key) {
      const { consumedPoints } = await failures.penalty(hashed(key));
      const delay = delayAfter(consumedPoints);
      if (delay > 0) await pauses.block(hashed(key), delay);
      return delay;
    },

    async reset(key) {
      await Promise.all([failures.delete(hashed(key)), pauses.delete(hashed(key))]);
    },
  };
}
