// Component tests of the profile micro-frontend, rendered in jsdom.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'mf-profile', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
});
