import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'auth',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
