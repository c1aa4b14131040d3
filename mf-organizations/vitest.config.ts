// Component tests of the organizations micro-frontend, rendered in jsdom.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mf-organizations', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
});
