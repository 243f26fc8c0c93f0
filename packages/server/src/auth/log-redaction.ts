import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets: the API key rides in `k` on /verify and /credits. */
const SECRET_QUERY = /([?&]k=)[^&#]*/gi;

export const redactUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** Fastify's request log fields, with secrets in the URL replaced. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
