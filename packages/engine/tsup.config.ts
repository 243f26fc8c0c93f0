import { defineConfig } from 'tsup';

export default defineConfig({
  // The CSV threads' entries are files of their own: `new Worker()` loads it beside the bundle. The
  // preview entry is `@scrub/engine/preview`, for browsers: no Node built-ins in its graph.
  entry: {
    index: 'src/index.ts',
    preview: 'src/preview.ts',
    'csv-thread-entry': 'src/csv/csv-thread-entry.ts',
    'csv-part-thread-entry': 'src/csv/csv-part-thread-entry.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
  // `import.meta.url` in the CommonJS build, to find the thread's entry.
  shims: true,
});
