// Component tests of the directory micro-frontend, rendered in jsdom.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mf-directory', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
});
