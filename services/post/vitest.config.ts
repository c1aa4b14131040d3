// Vitest project for the post service: its rules and sanitizer, and the service on a real PostgreSQL (service
// kit's per-run server) and real gRPC, with the profile and org services it asks played by fakes on real gRPC.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'post',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
