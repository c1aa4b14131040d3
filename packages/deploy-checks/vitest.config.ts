// Vitest project for the production stack's checks: Kubernetes manifests rendered with kubectl's kustomize,
// the compose file, the Dockerfiles, and the container-side scripts (health probe, migration step).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'deploy-checks',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../service-kit/src/testing/database.ts'],
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
