import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'news',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    hookTimeout: 60_000,
  },
});
