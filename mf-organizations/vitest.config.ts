// Component tests of the organizations micro-frontend, rendered in jsdom (test/setup.ts fills in what jsdom
// lacks: <dialog> methods and IntersectionObserver).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mf-organizations',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
