import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config/config.js';
import { dashboardDir } from './dashboard-settings.js';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Screens whose path is also a GET API path (`GET /plans`, a seed path both ways): a page load gets
 * the page, the SDK and curl the JSON. No other screen may share an API path: the dashboard's
 * route-paths test checks both route tables against this list.
 */
export const SCREENS_ON_API_PATHS: ReadonlySet<string> = new Set(['/plans']);

/**
 * Mantine writes style attributes and <style> tags, hence 'unsafe-inline' for styles only; scripts
 * come from this origin alone, and from Stripe when it takes the cards (Stripe.js, its card frames
 * and its API, as Stripe's CSP guide lists them). The identity provider and the blob store may be
 * elsewhere (Amazon Cognito, S3): the browser talks to them directly.
 */
export function contentSecurityPolicy(
  config: Pick<ServerConfig, 'cognito' | 'blobStore' | 'payments'>,
): string {
  const connect = ["'self'"];
  const scripts = ["'self'"];
  const frames = ["'self'"];
  if (config.cognito) connect.push(`https://cognito-idp.${config.cognito.region}.amazonaws.com`);
  if (config.blobStore.kind === 's3') connect.push(config.blobStore.endpoint ?? 'https://*.amazonaws.com');
  if (config.payments.kind === 'stripe') {
    scripts.push('https://js.stripe.com');
    frames.push('https://js.stripe.com', 'https://hooks.stripe.com');
    connect.push('https://api.stripe.com');
  }
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `frame-src ${frames.join(' ')}`,
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');
const urlPath = (request: FastifyRequest) => (request.url.split('?')[0] ?? '/').split('#')[0] ?? '/';

/**
 * Serves the built dashboard at `/`: its files with their MIME types, hashed `/assets/*` cached for a
 * year, and `index.html` for any other GET that asks for HTML (the app's own routes), never cached.
 * Every API path stays as it is, and a request for an unknown path that does not ask for HTML still
 * gets the API's JSON 404. Does nothing when there is no built dashboard.
 */
export async function setUpDashboard(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const root = dashboardDir();
  if (!root) {
    app.log.info(
      'No built dashboard found (build packages/dashboard, or set SCRUB_DASHBOARD_DIR): serving the API only',
    );
    return;
  }
  const base = normalize(root + sep);
  const indexHtml = await readFile(join(base, 'index.html'));
  const csp = contentSecurityPolicy(config);

  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('content-type', MIME_TYPES['.html'])
      .header('cache-control', 'no-cache')
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(indexHtml);

  /** A file under the dashboard's directory, or null (missing, a directory, or outside it). */
  const fileFor = async (path: string) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null;
    }
    const file = normalize(join(base, decoded));
    if (!file.startsWith(base) || decoded.includes('\0')) return null;
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? { file, size: info.size } : null;
  };

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' && wantsHtml(request) && SCREENS_ON_API_PATHS.has(urlPath(request))) {
      return sendIndex(reply);
    }
  });

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = urlPath(request);
    const found = path === '/' ? null : await fileFor(path);
    if (found) {
      const hashed = path.startsWith('/assets/');
      return reply
        .header('content-type', MIME_TYPES[extname(found.file).toLowerCase()] ?? 'application/octet-stream')
        .header('content-length', found.size)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
        .send(createReadStream(found.file));
    }
    if (wantsHtml(request) && !path.startsWith('/assets/')) return sendIndex(reply);
    // Not a page: the API's own 404 (or 405), in JSON.
    return reply.callNotFound();
  };
  // Static and parametric API routes win over this wildcard, so it only sees paths the API lacks.
  app.get('/', serve);
  app.get('/*', serve);
}
