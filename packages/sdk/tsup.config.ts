import { defineConfig } from 'tsup';

export default defineConfig({
  // Two entries: bundlers that honour the `browser` export condition take the one without node:fs.
  entry: ['src/index.ts', 'src/browser.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
});
