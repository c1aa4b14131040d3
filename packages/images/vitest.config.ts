// Vitest project for the image pipeline and the object store (sharp on generated images, a real embedded S3).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'images', include: ['test/**/*.test.ts'], testTimeout: 20000 } });
