// Vitest project for the engines package: the search proxy against a local fake engine and the process
// supervision (nothing left running, even when the parent is killed). No engine is fetched or started here.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'engines', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
});
