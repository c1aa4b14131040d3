// Component tests of the public square micro-frontend, rendered in jsdom (DOMPurify needs a real DOM
// implementation; test/setup.ts fills in what jsdom lacks: <dialog> methods and IntersectionObserver).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'mf-feed',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
  },
});
