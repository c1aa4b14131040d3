// Vitest project for change notifications: announce and listen on a real PostgreSQL (service kit's per-run
// server), including the transaction and reconnection cases.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'events',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../service-kit/src/testing/database.ts'],
    hookTimeout: 60000,
  },
});
