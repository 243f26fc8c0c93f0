import type { FastifyRequest } from 'fastify';

/** Query parameters that carry secrets: the API key rides in `k` on /verify and /credits. */
const SECRET_NAMES = new Set(['k']);

/** A query parameter's name as the router reads it: `+` is a space, then percent-decoded (kept raw when that fails). */
function parsedName(raw: string): string {
  const name = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The URL with the value of every secret parameter replaced. It judges each parameter by the name
 * the router parses (so `?%6B=` is `k`), never by matching the raw text, and splits the query
 * where the router does: at the first `?` or `#`, then at every `&`.
 */
export function redactUrl(url: string): string {
  const start = url.slice(1).search(/[?#]/) + 1;
  if (start === 0) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_NAMES.has(parsedName(name).toLowerCase()) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}`;
}

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
