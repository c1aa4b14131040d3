// The throttles on a real PostgreSQL: a fixed window refuses a key over its budget until the window ends, per
// key, and takes back a refunded event; a growing delay lets a few tries through, then one try per wait, each
// wait longer, up to a cap, and forgets on reset. Counts live in the database, so two service instances (two
// Prisma clients here, as two replicas) share them, and tries sent at once are each counted. Only Date is faked,
// to move through the windows; the database calls run for real.
import { createLogger, migrate, prismaAdapter } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.ts';
import { createGrowingDelay, createWindowLimit } from '../src/adapters/rate-limit.ts';

const root = new URL('..', import.meta.url).pathname;
let replicaA: PrismaClient;
let replicaB: PrismaClient;
let run = 0;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await migrate({
    databaseUrl,
    schema: 'auth',
    migrationsDir: `${root}prisma/migrations`,
    logger: createLogger('t', 'silent'),
  });
  replicaA = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
  replicaB = new PrismaClient({ adapter: prismaAdapter(databaseUrl, 'auth') });
}, 60_000);

afterAll(async () => {
  await replicaA?.$disconnect();
  await replicaB?.$disconnect();
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-26T09:00:00Z'));
  run += 1;
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

/** A limit under a name of its own per test, so tests never share counts. */
const windowLimit = (prisma: PrismaClient, points: number, windowSeconds: number) =>
  createWindowLimit(prisma, { name: `window-${run}`, points, windowSeconds });

const growingDelay = (prisma: PrismaClient) =>
  createGrowingDelay(prisma, {
    name: `delay-${run}`,
    freeFailures: 3,
    firstDelaySeconds: 10,
    maxDelaySeconds: 60,
    memorySeconds: 3600,
  });

describe('createWindowLimit', () => {
  it('answers 0 within the limit, then the whole seconds left in the window', async () => {
    const limit = windowLimit(replicaA, 3, 60);
    expect([await limit.attempt('a'), await limit.attempt('a'), await limit.attempt('a')]).toEqual([0, 0, 0]);
    advance(20);
    expect(await limit.attempt('a')).toBe(40);
    advance(1.5);
    // 38.5 s left: rounded up, never down to a wait that is too short.
    expect(await limit.attempt('a')).toBe(39);
  });

  it('lets the key through again once its window has passed, however often it was refused', async () => {
    const limit = windowLimit(replicaA, 2, 60);
    for (let i = 0; i < 10; i++) await limit.attempt('a');
    advance(59);
    expect(await limit.attempt('a')).toBe(1);
    advance(1);
    expect(await limit.attempt('a')).toBe(0);
  });

  it('counts each key apart', async () => {
    const limit = windowLimit(replicaA, 1, 60);
    expect(await limit.attempt('a')).toBe(0);
    expect(await limit.attempt('a')).toBeGreaterThan(0);
    expect(await limit.attempt('b')).toBe(0);
  });

  it('gives a refunded event back within its window, and never carries credit into the next', async () => {
    const limit = windowLimit(replicaA, 2, 60);
    await limit.attempt('q');
    await limit.attempt('q');
    await limit.refund('q');
    expect(await limit.attempt('q')).toBe(0);
    expect(await limit.attempt('q')).toBe(60);
    advance(60);
    await limit.refund('q');
    await limit.refund('fresh');
    expect([await limit.attempt('q'), await limit.attempt('q'), await limit.attempt('q')]).toEqual([
      0, 0, 60,
    ]);
    expect([
      await limit.attempt('fresh'),
      await limit.attempt('fresh'),
      await limit.attempt('fresh'),
    ]).toEqual([0, 0, 60]);
  });

  it('is shared by every replica: counts from one are seen by the other', async () => {
    const onA = windowLimit(replicaA, 2, 60);
    const onB = windowLimit(replicaB, 2, 60);
    expect(await onA.attempt('shared')).toBe(0);
    expect(await onB.attempt('shared')).toBe(0);
    expect(await onA.attempt('shared')).toBe(60);
    expect(await onB.attempt('shared')).toBe(60);
  });

  it('counts events sent at once to both replicas each, letting exactly its points through', async () => {
    const onA = windowLimit(replicaA, 5, 60);
    const onB = windowLimit(replicaB, 5, 60);
    const waits = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? onA : onB).attempt('burst')),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(5);
  });

  it('stores no key in the clear', async () => {
    const limit = windowLimit(replicaA, 2, 60);
    await limit.attempt('someone@dof.ca.gov');
    const rows = await replicaA.rateLimit.findMany();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.key.includes('someone'))).toBe(false);
  });

  it('refuses settings that would never count or never end', () => {
    expect(() => createWindowLimit(replicaA, { name: 'x', points: 0, windowSeconds: 60 })).toThrow(/points/);
    expect(() => createWindowLimit(replicaA, { name: 'x', points: 3, windowSeconds: 0 })).toThrow(
      /windowSeconds/,
    );
    expect(() => createWindowLimit(replicaA, { name: 'x', points: 3, windowSeconds: 1.5 })).toThrow(
      /windowSeconds/,
    );
  });
});

describe('createGrowingDelay', () => {
  /** A try: taken ('try'), then failed; or refused with the wait. */
  const failedTry = async (delay: ReturnType<typeof growingDelay>, key: string) => {
    const wait = await delay.reserve(key);
    if (wait > 0) return wait;
    await delay.fail(key);
    return 'try';
  };

  it('lets the free tries through, then one try per wait, each wait twice the last, up to the cap', async () => {
    const delay = growingDelay(replicaA);
    const answers: (number | string)[] = [];
    while (answers.length < 14) {
      const answer = await failedTry(delay, 'acct');
      answers.push(answer);
      // Someone keeps trying, each time the wait is over.
      if (typeof answer === 'number') advance(answer);
    }
    // Three free tries, then one try per wait: 10, 20, 40, 60, 60 s.
    expect(answers).toEqual([
      'try',
      'try',
      'try',
      'try',
      10,
      'try',
      20,
      'try',
      40,
      'try',
      60,
      'try',
      60,
      'try',
    ]);
  });

  it('counts down the wait, and ends it', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 4; i++) await failedTry(delay, 'acct');
    expect(await delay.reserve('acct')).toBe(10);
    advance(7.5);
    expect(await delay.reserve('acct')).toBe(3);
    advance(2.5);
    expect(await delay.reserve('acct')).toBe(0);
  });

  it('forgets the tries on reset, and once the first of them is older than the memory', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 5; i++) await failedTry(delay, 'acct');
    expect(await delay.reserve('acct')).toBeGreaterThan(0);
    await delay.reset('acct');
    for (let i = 0; i < 4; i++) expect(await failedTry(delay, 'acct')).toBe('try');
    expect(await delay.reserve('acct')).toBe(10);
    advance(3600);
    for (let i = 0; i < 4; i++) expect(await failedTry(delay, 'acct')).toBe('try');
  });

  it('makes failures counted without a try (a captcha stood in for the wait) lengthen the next waits', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 4; i++) await failedTry(delay, 'acct');
    expect(await delay.reserve('acct')).toBe(10);
    for (let i = 0; i < 3; i++) await delay.fail('acct');
    advance(10);
    expect(await delay.reserve('acct')).toBe(0);
    expect(await delay.reserve('acct')).toBe(60);
  });

  it('slows only the key that failed', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 6; i++) await failedTry(delay, 'victim');
    expect(await delay.reserve('victim')).toBeGreaterThan(0);
    expect(await delay.reserve('colleague')).toBe(0);
  });

  it('is shared by every replica', async () => {
    const onA = growingDelay(replicaA);
    const onB = growingDelay(replicaB);
    await failedTry(onA, 'acct');
    await failedTry(onB, 'acct');
    await failedTry(onA, 'acct');
    expect(await failedTry(onB, 'acct')).toBe('try');
    expect(await onA.reserve('acct')).toBe(10);
  });

  it('takes tries sent at once to both replicas each: only the free ones and one more get through', async () => {
    const onA = growingDelay(replicaA);
    const onB = growingDelay(replicaB);
    const waits = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? onA : onB).reserve('burst')),
    );
    expect(waits.filter((wait) => wait === 0)).toHaveLength(4);
    for (const wait of waits.filter((wait) => wait > 0)) expect(wait).toBe(10);
  });

  it('refuses settings that would lock for ever or never count', () => {
    const valid = {
      name: 'x',
      freeFailures: 3,
      firstDelaySeconds: 10,
      maxDelaySeconds: 60,
      memorySeconds: 60,
    };
    expect(() => createGrowingDelay(replicaA, { ...valid, maxDelaySeconds: 0 })).toThrow(/maxDelaySeconds/);
    expect(() => createGrowingDelay(replicaA, { ...valid, maxDelaySeconds: 5 })).toThrow(/maxDelaySeconds/);
    expect(() => createGrowingDelay(replicaA, { ...valid, memorySeconds: 0 })).toThrow(/memorySeconds/);
    expect(() => createGrowingDelay(replicaA, { ...valid, freeFailures: 0 })).toThrow(/freeFailures/);
  });
});
