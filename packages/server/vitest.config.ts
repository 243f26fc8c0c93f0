import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: 'server',
      globalSetup: ['./test/postgres-global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  }),
);
