// Component tests of the public square micro-frontend, rendered in jsdom.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mf-feed', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
});
