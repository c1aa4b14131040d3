// Vitest project for the profile service: its rules, and the service on a real PostgreSQL (service kit per-run
// server), S3 endpoint and gRPC.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'profile',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
