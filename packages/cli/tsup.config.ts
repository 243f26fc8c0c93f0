import { defineConfig } from 'tsup';

export default defineConfig({
  // One entry: commands are split into chunks loaded on demand, so `scrub --help` stays fast.
  entry: ['src/bin.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node22',
});
