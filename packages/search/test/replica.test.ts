// The search contract on the replicated index (Postgres durable, searches from memory), and what replication
// promises: another replica's writes arrive within moments, a replica reloads after losing its listening
// connection, and Postgres answers until the copy is loaded.
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SearchIndex } from '../src/index.ts';
import { createPostgresSearchIndex } from '../src/postgres.ts';
import { createReplicatedSearchIndex } from '../src/replica.ts';
import { CONTRACT_FIELDS, searchIndexContract } from '../src/testing/contract.ts';

/** One database for the contract's index and its reopened copy. */
let contractDatabase: Promise<string> | undefined;
const contractDatabaseUrl = () => {
  contractDatabase ??= createTestDatabase();
  return contractDatabase;
};
searchIndexContract(
  'replicated',
  async () =>
    createReplicatedSearchIndex({
      databaseUrl: await contractDatabaseUrl(),
      schema: 'contract_search',
      index: 'organizations',
      ...CONTRACT_FIELDS,
    }),
  {
    reopen: async (definition) =>
      createReplicatedSearchIndex({
        databaseUrl: await contractDatabaseUrl(),
        schema: 'contract_search',
        index: 'organizations',
        ...definition,
      }),
  },
);

const organization = (id: string, name: string) => ({
  id,
  text: { name },
  keywords: { group: ['Unions'] },
  sort: { name },
});

describe('replicated search index', () => {
  let databaseUrl: string;
  const open: SearchIndex[] = [];
  const replica = (overrides: { reconnectDelayMs?: number } = {}) => {
    const index = createReplicatedSearchIndex({
      databaseUrl,
      schema: 'replica_search',
      index: 'organizations',
      ...CONTRACT_FIELDS,
      ...overrides,
    });
    open.push(index);
    return index;
  };
  const names = async (index: SearchIndex, text: string) =>
    (await index.search({ text, offset: 0, limit: 10, sort: [{ field: 'name', direction: 'asc' }] })).ids;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  afterAll(async () => {
    await Promise.all(open.map((index) => index.close()));
  });

  it("finds another replica's additions, renames and removals within moments", async () => {
    const [a, b] = [replica(), replica()];
    await a.ensure();
    await b.ensure();
    await a.upsert([organization('r1', 'Sierra Nurses Guild'), organization('r2', 'Delta Water Agency')]);
    // The writer sees its write when the call returns; the other replica a moment later.
    expect(await names(a, 'sierra')).toEqual(['r1']);
    await vi.waitFor(async () => expect(await names(b, 'sierra')).toEqual(['r1']), { timeout: 2000 });

    await b.upsert([organization('r1', 'Sierra Teachers Guild')]);
    await vi.waitFor(async () => expect(await names(a, 'teachers')).toEqual(['r1']), { timeout: 2000 });
    expect(await names(a, 'nurses')).toEqual([]);

    await a.remove(['r2']);
    await vi.waitFor(async () => expect(await names(b, 'delta')).toEqual([]), { timeout: 2000 });

    await b.clear();
    await vi.waitFor(async () => expect(await names(a, 'sierra')).toEqual([]), { timeout: 2000 });
  });

  it('hears writes made straight on the Postgres index, as a reindex or a seed makes them', async () => {
    const copy = replica();
    await copy.ensure();
    const direct = createPostgresSearchIndex({
      databaseUrl,
      schema: 'replica_search',
      index: 'organizations',
      ...CONTRACT_FIELDS,
    });
    open.push(direct);
    await direct.upsert([organization('d1', 'Mojave Transit Board')]);
    await vi.waitFor(async () => expect(await names(copy, 'mojave')).toEqual(['d1']), { timeout: 2000 });
    await direct.clear();
    await vi.waitFor(async () => expect(await names(copy, 'mojave')).toEqual([]), { timeout: 2000 });
  });

  it('loads what is already indexed when it starts, and Postgres answers before that', async () => {
    const writer = replica();
    await writer.ensure();
    await writer.upsert([organization('s1', 'Capitol Nurses Alliance')]);
    const late = replica();
    expect(await names(late, 'capitol')).toEqual(['s1']);
    await late.ensure();
    expect(await names(late, 'capitol')).toEqual(['s1']);
  });

  it('copies no index larger than maxDocuments: Postgres answers it, and the operator is told', async () => {
    const schema = 'replica_too_large';
    const writer = createPostgresSearchIndex({
      databaseUrl,
      schema,
      index: 'organizations',
      ...CONTRACT_FIELDS,
    });
    open.push(writer);
    await writer.ensure();
    await writer.upsert([organization('m1', 'Modoc Water Board'), organization('m2', 'Modoc Nurses')]);
    const told: number[] = [];
    const large = createReplicatedSearchIndex({
      databaseUrl,
      schema,
      index: 'organizations',
      ...CONTRACT_FIELDS,
      maxDocuments: 1,
      onTooLarge: (documents) => told.push(documents),
    });
    const small = createReplicatedSearchIndex({
      databaseUrl,
      schema,
      index: 'organizations',
      ...CONTRACT_FIELDS,
      maxDocuments: 2,
      onTooLarge: (documents) => told.push(-documents),
    });
    open.push(large, small);
    await large.ensure();
    await small.ensure();
    expect(told).toEqual([2]);
    expect(await names(large, 'modoc')).toEqual(['m2', 'm1']);
    // Written elsewhere: Postgres has it at once, with no copy to bring in step.
    await writer.upsert([organization('m3', 'Modoc Teachers')]);
    expect(await names(large, 'teachers')).toEqual(['m3']);
  });

  it("follows another replica's rebuild: the old generation until the new one is loaded whole, never empty", async () => {
    const [rebuilder, follower] = [replica(), replica()];
    await rebuilder.ensure();
    await follower.ensure();
    const before = Array.from({ length: 300 }, (_, n) => organization(`f${n}`, `Before Zephyr ${n}`));
    await rebuilder.upsert(before);
    await vi.waitFor(async () =>
      expect((await follower.search({ text: 'zephyr', offset: 0, limit: 0 })).total).toBe(300),
    );
    const after = Array.from({ length: 300 }, (_, n) => organization(`f${n}`, `After Zephyr ${n}`));
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const rebuilding = rebuilder.rebuild({
      async eachPage(handle) {
        await handle(after.slice(0, 100));
        await gate;
        await handle(after.slice(100));
      },
      documents: async (ids) => after.filter((document) => ids.includes(document.id)),
    });
    let done = false;
    const totals: number[] = [];
    const watching = (async () => {
      while (!done) {
        totals.push((await follower.search({ text: 'zephyr', offset: 0, limit: 0 })).total);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await names(follower, 'before zephyr 299')).toEqual(['f299']);
    open();
    expect(await rebuilding).toEqual({ rebuilt: true, documents: 300 });
    await vi.waitFor(async () => expect(await names(follower, 'after zephyr 299')).toEqual(['f299']), {
      timeout: 5000,
    });
    done = true;
    await watching;
    expect(await names(follower, 'before')).toEqual([]);
    expect(new Set(totals)).toEqual(new Set([300]));
  });

  it('reloads the whole copy after its listening connection is cut, catching up on what it missed', async () => {
    const [writer, reader] = [replica(), replica({ reconnectDelayMs: 50 })];
    await writer.ensure();
    await reader.ensure();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // Cut every connection that is listening (the reader's), as a database restart or network failure would.
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND query LIKE 'LISTEN%' AND datname = current_database()`,
      );
      expect(cut.rowCount).toBeGreaterThanOrEqual(2);
      await writer.upsert([organization('t1', 'Tahoe Rangers Union')]);
      await vi.waitFor(async () => expect(await names(reader, 'tahoe')).toEqual(['t1']), { timeout: 5000 });
    } finally {
      await admin.end();
    }
  });
});
