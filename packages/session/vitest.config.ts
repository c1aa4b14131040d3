// Component and unit tests of the session store, in a browser-like DOM for localStorage.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'session', environment: 'jsdom', include: ['test/**/*.test.{ts,tsx}'] },
});
