// The search contract on a real Elasticsearch, when ELASTICSEARCH_URL names one; skipped (and said so) otherwise.
import { Client } from '@elastic/elasticsearch';
import { afterAll } from 'vitest';
import { createElasticsearchIndex } from '../src/index.ts';
import { CONTRACT_FIELDS, searchIndexContract } from '../src/testing/contract.ts';

const node = process.env.ELASTICSEARCH_URL;
// A fresh index per run, so parallel runs against one cluster do not share documents.
const index = `rotunda_search_contract_${Date.now().toString(36)}_${process.pid}`;

searchIndexContract(
  'elasticsearch',
  async () => createElasticsearchIndex({ node: node ?? '', index, ...CONTRACT_FIELDS, refresh: true }),
  node ? {} : { skipReason: 'ELASTICSEARCH_URL is not set' },
);

afterAll(async () => {
  if (!node) return;
  const client = new Client({ node });
  await client.indices.delete({ index, ignore_unavailable: true });
  await client.close();
});
