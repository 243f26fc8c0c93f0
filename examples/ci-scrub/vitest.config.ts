import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'example-ci-scrub',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
