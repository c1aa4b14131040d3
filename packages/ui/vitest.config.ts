// Component tests of the shared page frame, rendered in jsdom.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'ui', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
});
