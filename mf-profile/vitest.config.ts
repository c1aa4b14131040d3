// Component tests of the profile micro-frontend, rendered in jsdom (test/setup.ts fills in the <dialog>
// methods jsdom lacks and starts every test signed out with nothing stubbed).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mf-profile',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
