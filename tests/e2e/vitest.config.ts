import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    setupFiles: ['./src/require-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
