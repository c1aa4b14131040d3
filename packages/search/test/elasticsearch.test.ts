// The search contract on a real Elasticsearch-speaking engine, when ELASTICSEARCH_URL names one. Without it the
// suite is skipped and says so, unless ENGINES_REQUIRED=true (set by `npm run test:engines`, which starts the
// engines): then a missing engine is a failure, never a quiet skip.
import { Client } from '@elastic/elasticsearch';
import { afterAll, describe, it } from 'vitest';
import { createElasticsearchIndex } from '../src/index.ts';
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
  searchIndexContract(
    'elasticsearch',
    async () => createElasticsearchIndex({ node: node ?? '', index, ...CONTRACT_FIELDS, refresh: true }),
    node ? {} : { skipReason: 'ELASTICSEARCH_URL is not set' },
  );
}

afterAll(async () => {
  if (!node) return;
  const client = new Client({ node });
  await client.indices.delete({ index, ignore_unavailable: true });
  await client.close();
});
