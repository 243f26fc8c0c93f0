import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.SCRUB_API_URL ?? 'http://localhost:8787';
const emptyModule = fileURLToPath(new URL('./src/sdk-shims/empty-module.ts', import.meta.url));

/** First path segments of the service's API (contract routes, identity, uploads), proxied in `vite` dev. */
const apiPrefixes = [
  'health',
  'config',
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
];

export default defineConfig({
  plugins: [react()],
  // Workarounds for SDK browser gaps, to remove once @scrub/sdk has a browser entry:
  // amazon-cognito-identity-js loads `buffer` 4.x, which reads `global` when it is loaded.
  define: { global: 'globalThis' },
  resolve: {
    alias: {
      // The SDK's file-path upload imports node:fs lazily; browsers never take that path.
      'node:fs/promises': emptyModule,
      'node:fs': emptyModule,
    },
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 600 },
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
