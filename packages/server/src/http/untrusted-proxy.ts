import type { FastifyInstance } from 'fastify';

export const UNTRUSTED_PROXY_WARNING =
  'Requests arrive with X-Forwarded-For, but SCRUB_TRUST_PROXY is not set: every client counts as the load balancer, so one client\'s wrong passwords and rate limits hold back everyone. Set SCRUB_TRUST_PROXY to the proxies in front of the service (docs/operations.md, "Behind a load balancer").';

/**
 * Behind a load balancer without `SCRUB_TRUST_PROXY`, every request's peer is the balancer: the
 * per-address limits (20 wrong passwords make every sign-in wait) then count all clients as one.
 * The first request carrying `X-Forwarded-For` while no proxy is trusted writes one warning to the
 * log; the service goes on as configured. Once per process: a header check per request until then,
 * nothing after.
 */
export function warnOfUntrustedProxy(app: FastifyInstance, trustProxy: boolean | number | string[]): void {
  if (trustProxy !== false) return;
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    request.log.warn(UNTRUSTED_PROXY_WARNING);
  });
}
