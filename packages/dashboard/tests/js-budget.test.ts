import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { APP_BUDGET_BYTES, appJs, BUDGET_BYTES, initialJs, kb } from '../scripts/js-budget';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

// dist/ is the production build the global setup keeps current.
test(`everything that runs before the app's first screen is at most ${kb(APP_BUDGET_BYTES)} of JavaScript, gzipped`, () => {
  const initial = initialJs(dist);
  const app = appJs(dist);
  const total = app.reduce((sum, entry) => sum + entry.gzipBytes, 0);

  expect(initial.map((entry) => entry.file)).toContain('color-scheme.js');
  expect(initial.some((entry) => /^assets\/index-.*\.js$/.test(entry.file))).toBe(true);
  expect(app.some((entry) => /^assets\/start-app-.*\.js$/.test(entry.file))).toBe(true);
  // The SDK (with the contract's zod schemas) is loaded on first use, never with the first paint.
  expect(app.some((entry) => entry.file.includes('scrub-client'))).toBe(false);
  expect(total, app.map((entry) => `${entry.file} ${kb(entry.gzipBytes)}`).join('\n')).toBeLessThanOrEqual(
    APP_BUDGET_BYTES,
  );
});

// A signed-out visitor's Login form is plain DOM from the entry (src/screens/auth/login-stand-in.ts).
test(`everything index.html loads (the Login stand-in's first paint) is at most ${kb(BUDGET_BYTES)}, gzipped`, () => {
  const total = initialJs(dist).reduce((sum, entry) => sum + entry.gzipBytes, 0);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  // In fact a few KB: no React, no Mantine.
  expect(total).toBeLessThanOrEqual(10 * 1024);
});
