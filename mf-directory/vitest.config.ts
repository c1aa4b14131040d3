// Component tests of the directory micro-frontend, rendered in jsdom (test/setup.ts stands in for the
// IntersectionObserver jsdom lacks).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mf-directory',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
