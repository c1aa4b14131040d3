// Vitest project of the admin command: its tests run the command as an operator does, on the test PostgreSQL.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'admin',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../packages/service-kit/src/testing/database.ts'],
    // Each command is a whole process (start, migrate, wire); a test runs several in a row on a shared machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
