// Component tests of the shared pieces (page frame, dialog, spinner), rendered in jsdom; test/setup.ts
// fills in the <dialog> methods jsdom lacks.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'ui',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
