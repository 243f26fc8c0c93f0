import type { FastifyInstance } from 'fastify';

/**
 * Headers on every answer, the API's, the identity provider's, the dashboard's and refusals alike:
 * no content sniffing, no referrer leaking a URL (a file reference, an upload signature), and no
 * caching unless the route chose a cache policy itself (dashboard assets, the JWKS). Answers carry
 * API keys, tokens and file references, so none of them may sit in a shared cache.
 */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
} as const;

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      // A route's own referrer or cache policy stands (dashboard assets, the JWKS); sniffing never.
      if (name === 'x-content-type-options' || !reply.hasHeader(name)) reply.header(name, value);
    }
  });
}
