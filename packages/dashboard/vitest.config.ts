import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'dashboard',
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    // A real browser against the real service: sign-up, a bulk job and screenshots take a while.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
