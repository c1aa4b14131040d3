import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'admin',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
