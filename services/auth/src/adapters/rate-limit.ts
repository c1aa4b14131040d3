// The throttles on rate-limiter-flexible's RateLimiterPrisma: every count lives in the auth schema's rate_limits
// table, so all auth replicas count together, and each count is one INSERT … ON CONFLICT DO UPDATE, so requests
// sent at once are each counted. Two kinds: a fixed window (so many events per key per window, then a wait until
// the window ends) and a growing delay (a few free tries, then one try per wait, each wait twice the last, up to
// a cap), whose tries are taken before the check they guard. Keys are stored as SHA-256 hashes: no email or
// address in the table.
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
  /** Tries that cost nothing. */
  freeFailures: number;
  /** The wait after the first try beyond the free ones; each further failure doubles it. */
  firstDelaySeconds: number;
  /** The longest wait: never a permanent lock. */
  maxDelaySeconds: number;
  /** Tries and failures are forgotten this long after the first one (or at reset). */
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

    async refund(key) {
      // Only within the window that counted the event: a refund must not start the next window in credit.
      await prisma[MODEL].updateMany({
        where: { key: counts.getKey(hashed(key)), expire: { gt: new Date() }, points: { gt: 0 } },
        data: { points: { decrement: 1 } },
      });
    },
  };
}

export function createGrowingDelay(prisma: PrismaClient, options: GrowingDelayOptions): GrowingDelay {
  const { freeFailures, firstDelaySeconds, maxDelaySeconds, memorySeconds } = options;
  requirePositiveWholeNumbers({ freeFailures, firstDelaySeconds, maxDelaySeconds, memorySeconds });
  if (maxDelaySeconds < firstDelaySeconds) {
    throw new Error('Rate limit maxDelaySeconds must be at least firstDelaySeconds');
  }
  // The free tries taken in the current memory window: consume() refuses past them.
  const freeTries = limiter(prisma, `${options.name}:free`, freeFailures, memorySeconds);
  // The failures counted in the current memory window; penalty() counts without ever refusing.
  const failures = limiter(prisma, `${options.name}:failures`, Number.MAX_SAFE_INTEGER, memorySeconds);
  // One try per wait past the free ones: the first consume() of an expired (or absent) row takes it and starts
  // the wait at once, so every other try sent meanwhile finds the row used and is refused.
  const pauses = limiter(prisma, `${options.name}:pause`, 1, maxDelaySeconds);

  /** The wait a try beyond the free ones starts, from the failures counted so far. */
  const delayAfter = (failed: number) =>
    Math.min(maxDelaySeconds, firstDelaySeconds * 2 ** Math.min(Math.max(failed - freeFailures, 0), 30));

  const refused = (error: unknown) => {
    if (!(error instanceof RateLimiterRes)) throw error;
    return error;
  };

  return {
    async reserve(key) {
      const id = hashed(key);
      try {
        await freeTries.consume(id);
        return 0;
      } catch (error) {
        refused(error);
      }
      const failed = (await failures.get(id))?.consumedPoints ?? 0;
      try {
        await pauses.consume(id, 1, { customDuration: delayAfter(failed) });
        return 0;
      } catch (error) {
        return secondsOf(refused(error).msBeforeNext);
      }
    },

    async fail(key) {
      await failures.penalty(hashed(key));
    },

    async release(key) {
      // Taken from the free ones: one more is free again; taken at the end of a wait: no wait is owed for it.
      const id = hashed(key);
      await Promise.all([freeTries.reward(id, 1), pauses.delete(id)]);
    },

    async reset(key) {
      const id = hashed(key);
      await Promise.all([freeTries.delete(id), failures.delete(id), pauses.delete(id)]);
    },
  };
}
