import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/**
 * The dashboard's fast tests: forms and data hooks rendered in jsdom (no browser, no build), the
 * data hooks against the real service started in the test process. The Chromium tests, which need
 * the production build, are the `dashboard` project (vitest.config.ts).
 */
export default mergeConfig(
  shared,
  defineProject({
    test: {
      name: 'dashboard-components',
      include: ['src/**/*.test.{ts,tsx}', '*.test.ts'],
      environment: 'jsdom',
      setupFiles: ['src/test/setup-dom.ts'],
      // The service these tests start runs inside jsdom, under Vite's transform, where the embedded
      // database's worker script has no file path (`/@fs/...`): its database stays in the event loop.
      // Where it runs is tested in packages/pglite-pool and the server's storage tests.
      env: { SCRUB_EMBEDDED_DATABASE: 'inline' },
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
