import { createRequire } from 'node:module';

/** The server package's version, read from its package.json (one level above src/ and dist/). */
export const serverVersion: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
