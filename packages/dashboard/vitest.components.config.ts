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
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
