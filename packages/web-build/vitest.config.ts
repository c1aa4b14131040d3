// Unit tests of the shared Rsbuild configuration.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'web-build', include: ['test/**/*.test.ts'] } });
