// Vitest project for the search package: the contract on a real PostgreSQL (service kit's per-run server),
// on Elasticsearch when ELASTICSEARCH_URL is set, and the adapters' pure parts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'search',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../service-kit/src/testing/database.ts'],
    hookTimeout: 60000,
  },
});
