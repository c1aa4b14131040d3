// Vitest project for the search package: the contract on a real PostgreSQL (service kit's per-run server),
// on Elasticsearch when ELASTICSEARCH_URL is set, and the adapters' pure parts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'search',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../service-kit/src/testing/database.ts'],
    hookTimeout: 60000,
    // On a real engine a rebuild creates, fills and switches whole indices: seconds each on a busy two-core machine.
    testTimeout: 30_000,
  },
});
