// One vitest run over every workspace; each workspace keeps its own vitest.config.ts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'services/*', 'tools/*', 'gateway', 'shell', 'mf-*'],
  },
});
