import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: 'dashboard',
      include: ['tests/**/*.test.ts'],
      globalSetup: ['tests/global-setup.ts'],
      // A real browser against the real service: sign-up, a bulk job and screenshots take a while.
      testTimeout: 300_000,
      hookTimeout: 300_000,
      fileParallelism: false,
    },
  }),
);
