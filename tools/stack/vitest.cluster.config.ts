// The checks only a running Kubernetes cluster can answer (cluster-tests/): npm run test:cluster runs them once the
// local overlay is rolled out on `npm run cluster -- up`'s cluster.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cluster-live',
    include: ['cluster-tests/**/*.test.ts'],
    // One after another: a rollout must not overlap the checks that count pods.
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 600_000,
    hookTimeout: 180_000,
  },
});
