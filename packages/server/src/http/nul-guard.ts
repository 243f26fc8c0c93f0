import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/**
 * Where a NUL character hides in a parsed query, path or JSON body; null when there is none. A walk
 * with a stack of its own, not recursion: however deep a value nests, it cannot overflow.
 */
function nulPath(root: unknown): string | null {
  const pending: [unknown, string][] = [[root, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
      continue;
    }
    // A raw body (the upload route's request stream, a Buffer) is data, not text fields.
    if (value === null || typeof value !== 'object' || value instanceof Stream || ArrayBuffer.isView(value)) {
      continue;
    }
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes('\u0000')) return path;
      pending.push([inner, path ? `${path}.${key}` : key]);
    }
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
      const path = nulPath(value);
      if (path !== null) {
        throw new ApiError(
          'bad_request',
          `The ${location}${path ? ` field "${path}"` : ''} contains a NUL character (\\u0000), which no field accepts.`,
        );
      }
    }
  });
}
