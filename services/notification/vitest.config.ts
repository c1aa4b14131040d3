// Vitest project for the notification service: on a real PostgreSQL (the service kit's per-run server), real
// gRPC, a real MailDev inbox, and the profile and auth services it asks played by fakes on real gRPC.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'notification',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
