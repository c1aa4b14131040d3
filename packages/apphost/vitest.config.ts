import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'apphost', include: ['test/**/*.test.ts'], hookTimeout: 60_000 },
});
