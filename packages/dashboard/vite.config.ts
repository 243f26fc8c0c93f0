import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.SCRUB_API_URL ?? 'http://localhost:8787';

/** First path segments of the service's API (contract routes, identity, uploads), proxied in `vite` dev. */
const apiPrefixes = [
  'health',
  'config',
  'contact',
  'plans',
  'user',
  'apikey',
  'credits',
  'verify',
  'customer',
  'payment',
  'payment-methods',
  'payment-method',
  'subscription',
  'purchases',
  'bulk',
  'files',
  'admin',
  'identity',
  'uploads',
  '_stripe',
];

export default defineConfig({
  plugins: [react()],
  // amazon-cognito-identity-js loads `buffer` 4.x, which reads `global` when it is loaded (docs/sdk.md).
  define: { global: 'globalThis' },
  build: { target: 'es2022', chunkSizeWarningLimit: 600 },
  // The quote's record count runs in a module worker (src/csv/count-records-in-worker.ts).
  worker: { format: 'es' },
  server: {
    proxy: {
      [`^/(${apiPrefixes.join('|')})(/|\\?|$)`]: {
        target: api,
        // `/plans` and `/files/...` are also screens: a page load (Accept: text/html) stays with Vite.
        bypass: (request) => (request.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      },
    },
  },
});
