// The checks only a running stack can answer (stack-tests/): npm run test:stack runs them once the stack is up.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'stack-live',
    include: ['stack-tests/**/*.test.ts'],
    // One after another: a test that kills a replica must not overlap one that counts them.
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 180_000,
    // Hooks give the stack back what a check changed (an image, a replica), which takes a container's start.
    hookTimeout: 180_000,
  },
});
