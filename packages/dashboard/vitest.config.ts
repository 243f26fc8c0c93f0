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
      // No `fileParallelism: false`: Vitest would run these files one at a time after every other
      // file, on one core. The root config starts them first instead, beside the rest.
    },
  }),
);
