// Vitest project of the stack command: the pure parts (secrets, recipes' digests, compose arguments); the stack
// itself runs under `npm run test:stack`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'stack',
    include: ['test/**/*.test.ts'],
  },
});
