import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'packaging',
    // Packing, two npm installs (from the registry on a cold cache) and a server start.
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
