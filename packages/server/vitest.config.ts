import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(
  shared,
  defineProject({
    test: {
      name: 'server',
      globalSetup: ['./test/postgres-global-setup.ts'],
      // Each test file fails on an answer of a contract route that /openapi.json does not declare.
      setupFiles: ['./test/answer-recorder.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  }),
);

// Node code only: without the `module` condition, packages whose `module` build Node cannot load
// (@aws-sdk/core's extensionless ESM, reached from the Cognito client) resolve as Node resolves them.
config.ssr = { ...config.ssr, resolve: { conditions: ['@scrub/source', 'node', 'development|production'] } };

export default config;
