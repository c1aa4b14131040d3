// The search contract on a real Elasticsearch-speaking engine, when ELASTICSEARCH_URL names one. Without it the
// suite is skipped and says so, unless ENGINES_REQUIRED=true (set by `npm run test:engines`, which starts the
// engines): then a missing engine is a failure, never a quiet skip.
import { Client } from '@elastic/elasticsearch';
import { createTestDatabase } from '@rotunda/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { elasticsearchIndexBody } from '../src/elasticsearch/mapping.ts';
import { createElasticsearchIndex, type SearchIndexDefinition } from '../src/index.ts';
import { CONTRACT_FIELDS, searchIndexContract } from '../src/testing/contract.ts';

const node = process.env.ELASTICSEARCH_URL;
const required = process.env.ENGINES_REQUIRED === 'true';
// A fresh index per run, so parallel runs against one cluster do not share documents.
const index = `rotunda_search_contract_${Date.now().toString(36)}_${process.pid}`;

if (!node && required) {
  describe('search index contract elasticsearch', () => {
    it('runs against a real engine', () => {
      throw new Error(
        'ENGINES_REQUIRED is true but ELASTICSEARCH_URL is not set: start the engines (npm run engines)',
      );
    });
  });
} else {
  // The rebuild lock lives in PostgreSQL, as in production (the owning service's database).
  let lockDatabase: Promise<string> | undefined;
  const open = async (definition: SearchIndexDefinition) => {
    lockDatabase ??= createTestDatabase();
    return createElasticsearchIndex({
      node: node ?? '',
      index,
      ...definition,
      refresh: true,
      lockDatabaseUrl: await lockDatabase,
      retireAfterMs: 100,
    });
  };
  searchIndexContract(
    'elasticsearch',
    () => open(CONTRACT_FIELDS),
    node ? { reopen: open } : { skipReason: 'ELASTICSEARCH_URL is not set' },
  );
}

describe.runIf(node)('elasticsearch generations', () => {
  const legacy = `${index}_legacy`;
  const documents = [
    { id: 'a', text: { name: 'Alpha Guild' }, keywords: {}, sort: {} },
    { id: 'b', text: { name: 'Beta Guild' }, keywords: {}, sort: {} },
  ];
  const source = {
    eachPage: async (handle: (page: typeof documents) => Promise<void>) => handle(documents),
    documents: async (ids: string[]) => documents.filter((document) => ids.includes(document.id)),
  };

  it('deletes the generation a rebuild whose process died left, once a replica starts', async () => {
    const name = `${index}_crashed`;
    const client = new Client({ node: node as string });
    const lockDatabaseUrl = await createTestDatabase();
    const open = () =>
      createElasticsearchIndex({
        node: node as string,
        index: name,
        ...CONTRACT_FIELDS,
        refresh: true,
        lockDatabaseUrl,
      });
    try {
      const crashed = open();
      await crashed.ensure();
      await crashed.upsert(documents);
      // As a rebuild leaves it when its process dies: a generation behind the building alias, no lock held.
      await client.indices.create({
        index: `${name}-v0-1`,
        ...elasticsearchIndexBody(CONTRACT_FIELDS, 'abandoned'),
        aliases: { [`${name}-rebuilding`]: {} },
      });
      const restarted = open();
      expect(await restarted.ensure()).toBe('current');
      expect(await client.indices.exists({ index: `${name}-v0-1` })).toBe(false);
      // Writes no longer reach it, and create no index in its place.
      await restarted.upsert(documents);
      await restarted.remove(['a']);
      expect(await client.indices.exists({ index: `${name}-rebuilding` })).toBe(false);
      expect((await restarted.search({ offset: 0, limit: 10 })).ids).toEqual(['b']);
      await crashed.close();
      await restarted.close();
    } finally {
      await client.close();
    }
  });

  it("moves an earlier release's concrete index behind the alias, answering throughout", async () => {
    const client = new Client({ node: node as string });
    try {
      // As earlier releases made it: a concrete index named as the alias is now.
      await client.indices.create({ index: legacy, ...elasticsearchIndexBody(CONTRACT_FIELDS, 'earlier') });
      await client.index({
        index: legacy,
        id: 'old',
        document: { id: 'old', text: { name: 'old guild' } },
        refresh: true,
      });
      const search = createElasticsearchIndex({
        node: node as string,
        index: legacy,
        ...CONTRACT_FIELDS,
        refresh: true,
        lockDatabaseUrl: await createTestDatabase(),
      });
      expect(await search.ensure()).toBe('outdated');
      expect((await search.search({ text: 'guild', offset: 0, limit: 10 })).ids).toEqual(['old']);
      expect(await search.rebuild(source)).toEqual({ rebuilt: true, documents: 2 });
      expect(await search.ensure()).toBe('current');
      expect((await search.search({ text: 'guild', offset: 0, limit: 10 })).ids).toEqual(['a', 'b']);
      const aliases = await client.indices.getAlias({ name: legacy });
      expect(Object.keys(aliases)).toEqual([
        expect.stringMatching(new RegExp(`^${legacy}-v[0-9a-f]{12}-\\d+$`)),
      ]);
      await search.close();
    } finally {
      await client.close();
    }
  });
});

afterAll(async () => {
  if (!node) return;
  const client = new Client({ node });
  // Every generation of both indices (the alias names no index of its own).
  const made = await client.indices.get({ index: `${index}*` });
  if (Object.keys(made).length > 0) await client.indices.delete({ index: Object.keys(made) });
  await client.close();
});
