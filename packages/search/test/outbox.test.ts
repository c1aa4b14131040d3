// The search outbox on a real PostgreSQL, its table made by the post service's own migration: writes the engine
// missed survive the replica that took them (engine away → write → replica restarted → engine back → indexed,
// as the owner's table has it then), and two replicas draining at once send each write once.
import { readFileSync } from 'node:fs';
import { errors } from '@elastic/elasticsearch';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemorySearchIndex,
  type RebuildSource,
  type SearchDocument,
  type SearchIndex,
  withOutbox,
} from '../src/index.ts';
import { CONTRACT_FIELDS } from '../src/testing/contract.ts';

const MIGRATION = new URL(
  '../../../services/post/prisma/migrations/20270210090000_search_outbox/migration.sql',
  import.meta.url,
);
const SCHEMA = 'outbox_owner';

let databaseUrl: string;
let admin: pg.Client;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${SCHEMA}; SET search_path TO ${SCHEMA}`);
  await admin.query(readFileSync(MIGRATION, 'utf8'));
});
afterAll(async () => {
  await admin.end();
});

const doc = (id: string, name: string): SearchDocument => ({ id, text: { name }, keywords: {}, sort: {} });
const until = async (check: () => Promise<boolean>, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('not within time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** The owner's table the index is derived from. */
function ownerTable() {
  const rows = new Map<string, SearchDocument>();
  const source: RebuildSource = {
    eachPage: (handle) => handle([...rows.values()]),
    documents: async (ids) => ids.flatMap((id) => rows.get(id) ?? []),
  };
  return { rows, source };
}

/** The in-memory engine behind a switch: away (connection refused) until `up`; counts what reaches it. */
function engine() {
  const memory = createMemorySearchIndex(CONTRACT_FIELDS);
  const state = { up: true, sent: new Map<string, number>() };
  const reach = () => {
    if (!state.up) throw new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200');
  };
  const index: SearchIndex = {
    ...memory,
    async upsert(documents) {
      reach();
      for (const { id } of documents) state.sent.set(id, (state.sent.get(id) ?? 0) + 1);
      await memory.upsert(documents);
    },
    async remove(ids) {
      reach();
      await memory.remove(ids);
    },
    close: async () => {},
  };
  return { index, memory, state };
}

const replica = (index: SearchIndex) =>
  withOutbox(index, { databaseUrl, schema: SCHEMA, index: 'people', retryMs: 20 });
const waiting = async () =>
  Number((await admin.query(`SELECT count(*) AS n FROM ${SCHEMA}.search_outbox`)).rows[0].n);

describe('the search outbox', () => {
  it('keeps a write the engine missed past a restart of its replica, and indexes it once the engine is back', async () => {
    const { rows, source } = ownerTable();
    const { index, memory, state } = engine();
    const first = replica(index);
    first.resendFrom?.(source);
    rows.set('1', doc('1', 'Ada'));
    rows.set('2', doc('2', 'Grace'));
    await first.upsert([doc('1', 'Ada'), doc('2', 'Grace')]);

    state.up = false;
    rows.set('1', doc('1', 'Ada Lovelace'));
    await expect(first.upsert([doc('1', 'Ada Lovelace')])).resolves.toBeUndefined();
    rows.delete('2');
    await expect(first.remove(['2'])).resolves.toBeUndefined();
    rows.set('3', doc('3', 'Edith'));
    await first.upsert([doc('3', 'Edith')]);
    expect(await waiting()).toBe(3);
    // The replica is stopped before the engine returns: what it kept is in its owner's database, not its memory.
    await first.close();

    const second = replica(index);
    second.resendFrom?.(source);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await waiting()).toBe(3);
    state.up = true;
    await until(async () => (await waiting()) === 0);
    const found = await memory.search({ offset: 0, limit: 10 });
    expect(found.ids).toEqual(['1', '3']);
    expect((await memory.search({ text: 'lovelace', offset: 0, limit: 10 })).ids).toEqual(['1']);
    await second.close();
  });

  it('sends each kept write once when two replicas drain at once', async () => {
    const { rows, source } = ownerTable();
    const { index, memory, state } = engine();
    const one = replica(index);
    const other = replica(index);
    state.up = false;
    const documents = Array.from({ length: 1200 }, (_, at) => doc(String(at), `Name ${at}`));
    for (const document of documents) rows.set(document.id, document);
    await one.upsert(documents.slice(0, 600));
    await other.upsert(documents.slice(600));
    one.resendFrom?.(source);
    other.resendFrom?.(source);
    state.up = true;
    await until(async () => (await waiting()) === 0);
    expect((await memory.search({ offset: 0, limit: 0 })).total).toBe(1200);
    expect([...state.sent.values()].every((times) => times === 1)).toBe(true);
    await Promise.all([one.close(), other.close()]);
  });

  it('drains, in a replica that kept nothing itself, the rows a replica that is gone left', async () => {
    const { rows, source } = ownerTable();
    const { index, memory, state } = engine();
    // Started while the engine answered: it found nothing to send and keeps nothing.
    const survivor = withOutbox(index, {
      databaseUrl,
      schema: SCHEMA,
      index: 'people',
      retryMs: 20,
      sweepMs: 50,
    });
    survivor.resendFrom?.(source);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const gone = replica(index);
    state.up = false;
    rows.set('7', doc('7', 'Ida'));
    await gone.upsert([doc('7', 'Ida')]);
    await gone.close();
    state.up = true;
    await until(async () => (await waiting()) === 0, 2_000);
    expect((await memory.search({ offset: 0, limit: 10 })).ids).toEqual(['7']);
    await survivor.close();
  });

  it('lets a refusal of the write through: that is no outage to wait out', async () => {
    const refusing: SearchIndex = {
      ...engine().index,
      upsert: async () => {
        throw new Error('search: Elasticsearch refused 1: mapper_parsing_exception');
      },
    };
    const outboxed = replica(refusing);
    await expect(outboxed.upsert([doc('9', 'x')])).rejects.toThrow('mapper_parsing_exception');
    expect(await waiting()).toBe(0);
    await outboxed.close();
  });
});
