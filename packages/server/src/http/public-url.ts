import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config/config.js';

/**
 * The base URL clients reach the service at: SCRUB_PUBLIC_URL, or this machine and the port the
 * server listens on (read when asked, since port 0 is only known once listening).
 */
export function publicUrlOf(config: ServerConfig, app: FastifyInstance): () => string {
  return () => {
    if (config.publicUrl) return config.publicUrl;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const local = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.host);
    const host = local ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
    return `http://${host}:${port}`;
  };
}

/** A Host header's value: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST_PATTERN = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The origin a request was sent to (`http://127.0.0.1:8787`, `http://192.168.1.20:8787`), for an
 * answer that must point back to where the page was loaded from, with no setting: the dashboard
 * at 127.0.0.1 or on the machine's address signs up on that same origin, which its
 * content-security policy (`connect-src 'self'`) allows. SCRUB_PUBLIC_URL, when set, wins; a Host
 * header that is not a host falls back to `publicUrl`.
 */
export function requestOrigin(
  request: FastifyRequest,
  config: Pick<ServerConfig, 'publicUrl'>,
  publicUrl: () => string,
): string {
  if (config.publicUrl) return config.publicUrl;
  const host = request.host;
  if (!host || !HOST_PATTERN.test(host)) return publicUrl();
  return `${request.protocol}://${host}`;
}
