// The search contract on the Postgres adapter, plus what only Postgres has: its schema, its indexes, rebuilds.
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSearchIndex, type SearchIndex } from '../src/index.ts';
import { CONTRACT_FIELDS, searchIndexContract } from '../src/testing/contract.ts';

/** One database for the contract's index and its reopened copy. */
let contractDatabase: Promise<string> | undefined;
const contractDatabaseUrl = () => {
  contractDatabase ??= createTestDatabase();
  return contractDatabase;
};
searchIndexContract(
  'postgres',
  async () =>
    createPostgresSearchIndex({
      databaseUrl: await contractDatabaseUrl(),
      schema: 'contract_search',
      index: 'organizations',
      ...CONTRACT_FIELDS,
    }),
  {
    reopen: async (definition) =>
      createPostgresSearchIndex({
        databaseUrl: await contractDatabaseUrl(),
        schema: 'contract_search',
        index: 'organizations',
        ...definition,
      }),
  },
);

describe('postgres search adapter', () => {
  let databaseUrl: string;
  let client: pg.Client;
  const open: SearchIndex[] = [];
  const make = (overrides: Partial<Parameters<typeof createPostgresSearchIndex>[0]> = {}) => {
    const index = createPostgresSearchIndex({
      databaseUrl,
      schema: 'org_search',
      index: 'organizations',
      ...CONTRACT_FIELDS,
      ...overrides,
    });
    open.push(index);
    return index;
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
  });

  afterAll(async () => {
    await Promise.all(open.map((index) => index.close()));
    await client.end();
  });

  it('keeps its tables in its own schema, one per index', async () => {
    await make().ensure();
    await make({ index: 'people' }).ensure();
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'org_search' ORDER BY table_name`,
    );
    // Each index's stored values in a table beside it.
    expect(rows.map((row) => row.table_name)).toEqual([
      'organizations',
      'organizations_stored',
      'people',
      'people_stored',
    ]);
    const publicTables = await client.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(publicTables.rowCount).toBe(0);
  });

  it('serves substring words from the trigram index', async () => {
    const index = make({ index: 'trigram_check' });
    await index.ensure();
    await index.upsert(
      Array.from({ length: 2000 }, (_, n) => ({
        id: `o${n}`,
        text: { name: `Organization ${n}`, city: n % 2 === 0 ? 'Sacramento' : 'Fresno' },
        keywords: { group: [n % 3 === 0 ? 'Unions' : 'Agencies'] },
        sort: { name: `organization ${n}` },
      })),
    );
    await client.query('ANALYZE org_search.trigram_check');
    // At 2,000 rows a scan is cheaper and the planner rightly picks it; forbidding scans shows the index can
    // answer a LIKE '%…%' at all (right operator class, right expression), which is what makes 100k rows fast.
    await client.query('SET enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT id FROM org_search.trigram_check WHERE search_text LIKE '%nization 1234%'`,
    );
    expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('trigram_check_search_trgm');
    await client.query('RESET enable_seqscan');
    expect(await index.search({ text: 'nization 1234', offset: 0, limit: 5 })).toEqual({
      ids: ['o1234'],
      total: 1,
    });
  });

  it('reads every document back a page at a time, in id order, as an in-memory copy loads', async () => {
    const index = make({ schema: 'paged_search' });
    await index.ensure();
    await index.upsert(
      ['e', 'a', 'd', 'c', 'b'].map((id) => ({
        id,
        text: { name: `Name ${id}` },
        keywords: { group: ['Unions'] },
        sort: { name: id },
        stored: `card ${id}`,
      })),
    );
    const pages: string[][] = [];
    for await (const page of index.allDocuments(2)) pages.push(page.map((document) => document.id));
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(await index.documents(['c'])).toEqual([
      {
        id: 'c',
        text: { name: 'name c', city: '' },
        keywords: { group: ['Unions'], tags: [] },
        sort: { name: 'c' },
        stored: 'card c',
      },
    ]);
  });

  it('concurrent ensure() calls agree', async () => {
    const indexes = [make({ index: 'raced' }), make({ index: 'raced' }), make({ index: 'raced' })];
    await Promise.all(indexes.map((index) => index.ensure()));
    await indexes[0]?.upsert([{ id: 'a', text: { name: 'Alpha' }, keywords: {}, sort: {} }]);
    await Promise.all(indexes.map((index) => index.ensure()));
    expect((await indexes[1]?.search({ offset: 0, limit: 1 }))?.total).toBe(1);
  });

  it('keeps an index whose definition changed answering, outdated, until a rebuild swaps in the new one', async () => {
    const before = make({ index: 'evolving' });
    expect(await before.ensure()).toBe('current');
    await before.upsert([{ id: 'a', text: { name: 'Alpha' }, keywords: {}, sort: {} }]);
    const after = make({ index: 'evolving', textFields: ['name', 'city', 'street'] });
    expect(await after.ensure()).toBe('outdated');
    expect(await after.ensure()).toBe('outdated');
    expect(await before.search({ offset: 0, limit: 10 })).toEqual({ ids: ['a'], total: 1 });
    const documents = [{ id: 'b', text: { street: '1 Capitol Mall' }, keywords: {}, sort: {} }];
    const source = {
      eachPage: async (handle: (page: typeof documents) => Promise<void>) => handle(documents),
      documents: async () => [],
    };
    expect(await after.rebuild(source)).toEqual({ rebuilt: true, documents: 1 });
    expect(await after.ensure()).toBe('current');
    expect((await after.search({ text: 'capitol', offset: 0, limit: 10 })).ids).toEqual(['b']);
    // The new generation carries the live names, and nothing of the rebuild is left beside it.
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'org_search' AND table_name LIKE 'evolving%'
        ORDER BY table_name`,
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual(['evolving', 'evolving_stored']);
    const indexes = await client.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'org_search' AND tablename LIKE 'evolving%' ORDER BY indexname`,
    );
    expect(indexes.rows.map((row) => row.indexname)).toEqual([
      'evolving_k_group',
      'evolving_k_tags',
      'evolving_pkey',
      'evolving_s_name_asc',
      'evolving_s_name_desc',
      'evolving_s_score_asc',
      'evolving_s_score_desc',
      'evolving_search_trgm',
      'evolving_stored_pkey',
    ]);
    const leftovers = await client.query(
      `SELECT 1 FROM pg_trigger WHERE tgname = 'rotunda_rebuild_log' UNION ALL
        SELECT 1 FROM pg_proc WHERE proname LIKE 'evolving_rebuild%'`,
    );
    expect(leftovers.rowCount).toBe(0);
  });

  it('leaves the live index as it was when a rebuild fails, and a later one succeeds', async () => {
    const index = make({ index: 'failing' });
    await index.ensure();
    await index.upsert([{ id: 'a', text: { name: 'Alpha' }, keywords: {}, sort: {} }]);
    const document = { id: 'b', text: { name: 'Beta' }, keywords: {}, sort: {} };
    const broken = {
      eachPage: async (handle: (page: (typeof document)[]) => Promise<void>) => {
        await handle([document]);
        throw new Error('the table went away');
      },
      documents: async () => [],
    };
    await expect(index.rebuild(broken)).rejects.toThrow('the table went away');
    expect(await index.search({ offset: 0, limit: 10 })).toEqual({ ids: ['a'], total: 1 });
    // Writers no longer log for a rebuild that is gone.
    const trigger = await client.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'rotunda_rebuild_log'`);
    expect(trigger.rowCount).toBe(0);
    await index.upsert([{ id: 'c', text: { name: 'Gamma' }, keywords: {}, sort: {} }]);
    const working = {
      eachPage: async (handle: (page: (typeof document)[]) => Promise<void>) => handle([document]),
      documents: async () => [],
    };
    expect(await index.rebuild(working)).toEqual({ rebuilt: true, documents: 1 });
    expect(await index.search({ offset: 0, limit: 10 })).toEqual({ ids: ['b'], total: 1 });
  });

  it('clears away what a rebuild whose process died left, once a replica starts, the live index untouched', async () => {
    const crashed = make({ index: 'crashed' });
    await crashed.ensure();
    await crashed.upsert([{ id: 'a', text: { name: 'Alpha' }, keywords: {}, sort: {} }]);
    const never = new Promise<void>(() => {});
    void crashed.rebuild({ eachPage: () => never, documents: async () => [] });
    const leftovers = async () =>
      (
        await client.query(
          `SELECT 1 FROM pg_trigger WHERE tgname = 'rotunda_rebuild_log' UNION ALL
            SELECT 1 FROM pg_class WHERE relname LIKE 'crashed_rebuild%'`,
        )
      ).rowCount;
    await expect.poll(leftovers).toBeGreaterThan(0);
    // Its process dies: the session holding the rebuild lock ends.
    await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    const restarted = make({ index: 'crashed' });
    expect(await restarted.ensure()).toBe('current');
    expect(await leftovers()).toBe(0);
    expect(await restarted.search({ offset: 0, limit: 10 })).toEqual({ ids: ['a'], total: 1 });
  });

  it('catches up on writes another process makes straight on the live table while it rebuilds', async () => {
    const rebuilder = make({ index: 'shared' });
    const other = make({ index: 'shared' });
    await rebuilder.ensure();
    const doc = (id: string, name: string) => ({ id, text: { name }, keywords: {}, sort: {} });
    await other.upsert([doc('a', 'Alpha'), doc('b', 'Beta')]);
    const table = new Map([doc('a', 'Alpha'), doc('b', 'Beta')].map((d) => [d.id, d]));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const paused = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const rebuilding = rebuilder.rebuild({
      async eachPage(handle) {
        await handle([...table.values()]);
        reached();
        await gate;
      },
      documents: async (ids) => ids.flatMap((id) => table.get(id) ?? []),
    });
    await paused;
    // Another replica, its own pool: its writes reach the live table only; the trigger logs them.
    table.set('a', doc('a', 'Alpha Renamed'));
    await other.upsert([table.get('a') as ReturnType<typeof doc>]);
    table.delete('b');
    await other.remove(['b']);
    table.set('c', doc('c', 'Gamma'));
    await other.upsert([table.get('c') as ReturnType<typeof doc>]);
    release();
    expect(await rebuilding).toEqual({ rebuilt: true, documents: 2 });
    expect((await other.search({ offset: 0, limit: 10 })).ids).toEqual(['a', 'c']);
    expect((await other.search({ text: 'renamed', offset: 0, limit: 10 })).ids).toEqual(['a']);
  });

  it('refuses identifiers that are not plain lower-case names', () => {
    expect(() => make({ schema: 'Org' })).toThrow(/schema/);
    expect(() => make({ index: 'orgs; DROP TABLE x' })).toThrow(/index/);
    expect(() => make({ textFields: ['first-name'] })).toThrow(/text field/);
    expect(() => make({ keywordFields: ['group', 'group'] })).toThrow(/twice/);
    expect(() => make({ textFields: [] })).toThrow(/at least one text field/);
    expect(() => make({ index: 'x'.repeat(60) })).toThrow(/63/);
  });

  it('refuses pages deeper than the shared result window', async () => {
    const index = make();
    await expect(index.search({ offset: 99_990, limit: 20 })).rejects.toThrow(/100000/);
  });
});
