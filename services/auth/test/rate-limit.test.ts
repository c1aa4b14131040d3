// The throttles on a real PostgreSQL: a fixed window refuses a key over its budget until the window ends, per
// key; a growing delay lets a few failures through, then makes the key wait longer with each one, up to a cap,
// and forgets on reset. Counts live in the database, so two service instances (two Prisma clients here, as two
// replicas) share them. Only Date is faked, to move through the windows; the database calls run for real.
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

  it('tells whether a key has no event left, without counting one', async () => {
    const limit = windowLimit(replicaA, 2, 60);
    expect(await limit.blocked('q')).toBe(0);
    await limit.attempt('q');
    expect(await limit.blocked('q')).toBe(0);
    expect(await limit.blocked('q')).toBe(0);
    await limit.attempt('q');
    expect(await limit.blocked('q')).toBe(60);
    advance(60);
    expect(await limit.blocked('q')).toBe(0);
  });

  it('is shared by every replica: counts from one are seen by the other', async () => {
    const onA = windowLimit(replicaA, 2, 60);
    const onB = windowLimit(replicaB, 2, 60);
    expect(await onA.attempt('shared')).toBe(0);
    expect(await onB.attempt('shared')).toBe(0);
    expect(await onA.attempt('shared')).toBe(60);
    expect(await onB.blocked('shared')).toBe(60);
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
  it('lets the free failures through, then doubles the wait with each further one, up to the cap', async () => {
    const delay = growingDelay(replicaA);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const wait = await delay.fail('acct');
      waits.push(wait);
      expect(await delay.wait('acct')).toBe(wait);
      // The next try comes once the wait is over.
      advance(wait);
      expect(await delay.wait('acct')).toBe(0);
    }
    expect(waits).toEqual([0, 0, 0, 10, 20, 40, 60, 60]);
  });

  it('counts down the wait, and ends it', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 4; i++) await delay.fail('acct');
    expect(await delay.wait('acct')).toBe(10);
    advance(7.5);
    expect(await delay.wait('acct')).toBe(3);
    advance(2.5);
    expect(await delay.wait('acct')).toBe(0);
  });

  it('forgets the failures on reset, and once the first of them is older than the memory', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 5; i++) await delay.fail('acct');
    expect(await delay.wait('acct')).toBeGreaterThan(0);
    await delay.reset('acct');
    expect(await delay.wait('acct')).toBe(0);
    expect([await delay.fail('acct'), await delay.fail('acct'), await delay.fail('acct')]).toEqual([0, 0, 0]);
    expect(await delay.fail('acct')).toBe(10);
    advance(3600);
    expect(await delay.fail('acct')).toBe(0);
  });

  it('slows only the key that failed', async () => {
    const delay = growingDelay(replicaA);
    for (let i = 0; i < 6; i++) await delay.fail('victim');
    expect(await delay.wait('victim')).toBeGreaterThan(0);
    expect(await delay.wait('colleague')).toBe(0);
    expect(await delay.fail('colleague')).toBe(0);
  });

  it('is shared by every replica', async () => {
    const onA = growingDelay(replicaA);
    const onB = growingDelay(replicaB);
    await onA.fail('acct');
    await onB.fail('acct');
    await onA.fail('acct');
    expect(await onB.fail('acct')).toBe(10);
    expect(await onA.wait('acct')).toBe(10);
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
