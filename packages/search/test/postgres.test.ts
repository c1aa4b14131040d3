// The search contract on the Postgres adapter, plus what only Postgres has: its schema, its indexes, rebuilds.
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSearchIndex, type SearchIndex } from '../src/index.ts';
import { CONTRACT_FIELDS, searchIndexContract } from '../src/testing/contract.ts';

searchIndexContract('postgres', async () =>
  createPostgresSearchIndex({
    databaseUrl: await createTestDatabase(),
    schema: 'contract_search',
    index: 'organizations',
    ...CONTRACT_FIELDS,
  }),
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

  it('rebuilds an index whose definition changed, empty for the owner to reindex', async () => {
    const before = make({ index: 'evolving' });
    await before.ensure();
    await before.upsert([{ id: 'a', text: { name: 'Alpha' }, keywords: {}, sort: {} }]);
    const after = make({ index: 'evolving', textFields: ['name', 'city', 'street'] });
    await after.ensure();
    expect(await after.search({ offset: 0, limit: 10 })).toEqual({ ids: [], total: 0 });
    await after.upsert([{ id: 'b', text: { street: '1 Capitol Mall' }, keywords: {}, sort: {} }]);
    expect((await after.search({ text: 'capitol', offset: 0, limit: 10 })).ids).toEqual(['b']);
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
