import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/** The deepest a JSON body may nest objects and arrays; no request of the API needs more than 4. */
export const MAX_JSON_DEPTH = 32;

/** How deep `text` nests objects and arrays, counted in one pass without recursion; stops past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * The API's one body parser: JSON only (anything else is a 415 naming what is accepted), parsed by
 * Fastify's own parser (which refuses `__proto__` and `constructor.prototype` keys) once its
 * nesting is known to be within `MAX_JSON_DEPTH`, so no later walk over the body can run out of
 * stack.
 */
export function installJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) {
      done(
        new ApiError(
          'bad_request',
          `The JSON body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep, the most this API reads.`,
        ),
        undefined,
      );
      return;
    }
    parse(request, body as string, done);
  });
}
