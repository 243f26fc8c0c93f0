import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { proxyPattern } from './dev-proxy';

const api = process.env.SCRUB_API_URL ?? 'http://localhost:8787';

export default defineConfig({
  plugins: [react()],
  // amazon-cognito-identity-js loads `buffer` 4.x, which reads `global` when it is loaded (docs/sdk.md).
  define: { global: 'globalThis' },
  build: { target: 'es2022', chunkSizeWarningLimit: 600 },
  // The quote's record count runs in a module worker (src/csv/count-records-in-worker.ts).
  worker: { format: 'es' },
  server: {
    proxy: {
      // Every path of the contract's route table and of the local stand-ins: a new route needs no edit here.
      [proxyPattern()]: {
        target: api,
        // `/plans` and `/files/...` are also screens: a page load (Accept: text/html) stays with Vite.
        bypass: (request) => (request.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      },
    },
  },
});
