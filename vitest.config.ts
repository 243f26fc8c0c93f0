import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'tests/*'],
    // initdb once per run, not once per database (docs/architecture.md, "Test time").
    globalSetup: ['packages/server/test/pglite-template-setup.ts'],
    // Vitest runs cores - 1 files at once: one on a 2-core machine. Most files wait on a server,
    // a database or a child process rather than the CPU, so two at a time finish sooner; three
    // starved the tests that start built binaries past their timeouts.
    maxWorkers: 2,
  },
});
