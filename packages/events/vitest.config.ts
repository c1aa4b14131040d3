// Vitest project for change notifications and recorded events: announce, record, listen and consume on a real
// PostgreSQL (service kit's per-run server), including the transaction, reconnection and role cases.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'events',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../service-kit/src/testing/database.ts'],
    hookTimeout: 60000,
  },
});
