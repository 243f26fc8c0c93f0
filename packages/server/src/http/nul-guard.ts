import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';

/** Where a NUL character hides in a parsed query, path or JSON body; null when there is none. */
function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  // A raw body (the upload route's request stream, a Buffer) is data, not text fields.
  if (value instanceof Stream || ArrayBuffer.isView(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = key.includes('\u0000') ? path : nulPath(inner, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuses text with a NUL character (`\u0000`, `%00`) before any route sees it: PostgreSQL text
 * cannot hold one, so it would otherwise fail deep in a query as a 500.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [location, value] of [
      ['query', request.query],
      ['path', request.params],
      ['body', request.body],
    ] as const) {
      const path = nulPath(value, '');
      if (path !== null) {
        throw new ApiError(
          'bad_request',
          `The ${location}${path ? ` field "${path}"` : ''} contains a NUL character (\\u0000), which no field accepts.`,
        );
      }
    }
  });
}
