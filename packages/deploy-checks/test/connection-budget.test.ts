// The connection budget's per-replica figure against a real replica: the profile service (the most connections
// of any: Prisma's pool, the hot-read driver, the search index's pool and its in-memory copy's listener, the
// organization change listener, the reader of the auth service's recorded events, the probe; the rebuild lock is
// held only while a rebuild runs, the outbox's prune once a day) wired as its composition root wires it, on the
// test PostgreSQL, with small pools. It is driven harder than its pools are large, with its search tables locked, so each call holds
// its connection: the pools open all they may. pg_stat_activity then counts what the replica holds.
import { ensureEventTables } from '@rotunda/events';
import { createLogger, createPostgresProbe, loadConfig, migrate } from '@rotunda/service-kit';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepOrgCopy } from '../../../services/profile/src/adapters/org-change-listener.ts';
import {
  AUTH_EVENTS,
  consumeAccountDeletions,
} from '../../../services/profile/src/adapters/profile-events.ts';
import { profileConfigSchema } from '../../../services/profile/src/config.ts';
import { wireProfile } from '../../../services/profile/src/wiring.ts';
import { perReplica } from '../src/connection-budget.ts';
import { repoPath } from './support/repo.ts';

const POOL = 3;
const READ_POOL = 2;

describe('the connection budget against a running profile replica', () => {
  let databaseUrl: string;
  /** The test's own connections (named test, so as not to be counted). */
  let admin: pg.Client;
  let locker: pg.Client;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    await migrate({
      databaseUrl,
      schema: 'profile',
      migrationsDir: repoPath('services/profile/prisma/migrations'),
      logger: createLogger('test', 'silent'),
    });
    admin = new pg.Client({ connectionString: databaseUrl, application_name: 'test' });
    await admin.connect();
    locker = new pg.Client({ connectionString: databaseUrl, application_name: 'test' });
    await locker.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await locker?.end();
  });

  /** The replica's connections to its database, by application_name (the test's own excluded). */
  async function connectionsByName(): Promise<Record<string, number>> {
    const { rows } = await admin.query<{ name: string; count: number }>(
      `SELECT application_name AS name, count(*)::int AS count FROM pg_stat_activity
       WHERE datname = current_database() AND application_name <> 'test' GROUP BY application_name`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.count]));
  }
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

  it('holds no more connections than the formula says for one replica, with every pool full', async () => {
    const config = loadConfig(profileConfigSchema, {
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(POOL),
      DATABASE_READ_POOL_SIZE: String(READ_POOL),
      MIGRATE_ON_START: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
    });
    const logger = createLogger('profile', 'silent');
    // As services/profile/src/main.ts and the service kit start it (the object store is not touched).
    const wiring = await wireProfile(config, logger);
    await wiring.directory.rebuildIfOutOfStep();
    // No org service here: its first copy of the names finds nothing to copy, so the listener stays connected.
    const orgCopy = { ...wiring.orgCopy, copyAll: async () => ({ organizations: [], divisions: [] }) };
    const listener = keepOrgCopy({ databaseUrl: config.DATABASE_URL, logger, orgCopy });
    // The auth service's outbox, as its start makes it; the profile replica reads it from its own cursor.
    await ensureEventTables(databaseUrl, AUTH_EVENTS);
    const consumer = consumeAccountDeletions({
      databaseUrl: config.DATABASE_URL,
      logger,
      members: wiring.members,
    });
    await consumer.ready;
    const probe = createPostgresProbe(config.DATABASE_URL);
    await probe.ready();

    const budget = perReplica('profile', config);
    expect(budget).toMatchObject({
      pool: POOL,
      readPools: 2 * READ_POOL,
      listeners: 2,
      eventConsumers: 2,
      outbox: 1,
      rebuildLock: 1,
      probe: 1,
    });

    const { rows: tables } = await admin.query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'profile_search'`,
    );
    expect(tables.length).toBeGreaterThan(0);
    // On a connection of its own: pg_stat_activity is read once per transaction.
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${tables.map((t) => t.name).join(', ')} IN ACCESS EXCLUSIVE MODE`);
    const load = [
      // Index writes: each reads the profile through Prisma's pool, then removes it (gone) from the index through
      // the search index's pool, where the lock holds it.
      ...Array.from({ length: 3 * READ_POOL }, (_, i) => wiring.directory.profilesChanged([i + 1])),
      // Prisma Client's pool: more slow statements than it has connections.
      ...Array.from({ length: 2 * POOL }, () => wiring.prisma.$queryRaw`SELECT pg_sleep(1)`),
    ].map((call) => Promise.resolve(call).catch(() => undefined));

    // Wait until the pools stop opening connections.
    let counts = await connectionsByName();
    for (let stable = 0; stable < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await connectionsByName();
      stable = sum(next) === sum(counts) ? stable + 1 : 0;
      counts = next;
    }
    await locker.query('ROLLBACK');
    await Promise.all(load);
    await listener.close();
    await consumer.close();
    await probe.close();
    await wiring.close();

    // The pools are full: Prisma's at DATABASE_POOL_SIZE, the search index's at DATABASE_READ_POOL_SIZE (unnamed,
    // as are the two listeners and the event consumer's two), the probe's at one.
    expect(counts.profile, JSON.stringify(counts)).toBe(POOL);
    expect(counts[''], JSON.stringify(counts)).toBe(READ_POOL + budget.listeners + budget.eventConsumers);
    expect(counts['rotunda.probe'], JSON.stringify(counts)).toBe(1);
    expect(counts['profile.read'] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(READ_POOL);
    expect(sum(counts), JSON.stringify(counts)).toBeLessThanOrEqual(budget.total);
  });
});
