import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'service-kit',
    include: ['test/**/*.test.ts'],
    globalSetup: ['src/testing/database.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
