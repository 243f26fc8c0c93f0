import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineProject({
    // Sign-ins run the 3072-bit SRP exchange against a real local pool: seconds on a loaded machine.
    test: { name: 'sdk', testTimeout: 30_000 },
  }),
);
