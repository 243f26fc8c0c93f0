import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { BUDGET_BYTES, initialJs, kb } from '../scripts/js-budget';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

// dist/ is the production build the global setup keeps current.
test(`everything index.html loads is at most ${kb(BUDGET_BYTES)} of JavaScript, gzipped`, () => {
  const initial = initialJs(dist);
  const total = initial.reduce((sum, entry) => sum + entry.gzipBytes, 0);

  expect(initial.map((entry) => entry.file)).toContain('color-scheme.js');
  expect(initial.some((entry) => /^assets\/index-.*\.js$/.test(entry.file))).toBe(true);
  // The SDK (with the contract's zod schemas) is loaded on first use, never with the first paint.
  expect(initial.some((entry) => entry.file.includes('scrub-client'))).toBe(false);
  expect(
    total,
    initial.map((entry) => `${entry.file} ${kb(entry.gzipBytes)}`).join('\n'),
  ).toBeLessThanOrEqual(BUDGET_BYTES);
});
