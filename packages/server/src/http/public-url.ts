import type { FastifyInstance } from 'fastify';
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
