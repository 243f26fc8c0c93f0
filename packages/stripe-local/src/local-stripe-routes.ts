import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticationPage } from './authentication-page.js';
import type { LocalStripe } from './local-stripe.js';
import { stripeJsStandIn } from './stripe-js-stand-in.js';

/** Where a host service mounts the provider on its own port: `<public URL>/_stripe/v1/...`. */
export const LOCAL_STRIPE_PREFIX = '/_stripe';
/** The stand-in Stripe.js, under the prefix: load it with a `<script>` before the app. */
export const stripeJsPath = (prefix = LOCAL_STRIPE_PREFIX) => `${prefix}/js/v3`;

const FORM = 'application/x-www-form-urlencoded';

const stripeError = (reply: FastifyReply, status: number, message: string) =>
  reply
    .status(status)
    .send({ error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } });

/**
 * Serves the provider in a scope of its own, so its form body parser and its Stripe-shaped errors
 * (`{"error": {...}}`) apply here only, never the host's own error envelope. Under `prefix`
 * (`/_stripe` on a host service's port, empty when the provider has a port of its own):
 * - `<prefix>/v1/*`: Stripe's REST API (point the `stripe` SDK's host/port/protocol here);
 * - `<prefix>/js/v3`: the stand-in Stripe.js;
 * - `<prefix>/authenticate/:intent`: the 3-D Secure test page ("Complete" / "Fail").
 * The provider's `publicUrl` is where clients reach that prefix.
 */
export async function registerLocalStripeRoutes(
  app: FastifyInstance,
  stripe: LocalStripe,
  prefix = LOCAL_STRIPE_PREFIX,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => done(null, body));

    scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) request.log.error({ err: error }, 'built-in payment provider failure');
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return stripeError(reply, 400, `Send the request body as ${FORM}, as Stripe takes it.`);
      }
      return stripeError(
        reply,
        status,
        status >= 500 ? 'An error occurred with the built-in payment provider.' : error.message,
      );
    });

    const api = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
      const queryAt = request.url.indexOf('?');
      const query = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
      // The path as sent (Fastify's `*` parameter is decoded already): the ids in it are decoded once, there.
      const sent = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
      const base = `${prefix}/v1/`;
      const path = sent.startsWith(base) ? sent.slice(base.length) : encodeURI(request.params['*']);
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const response = await stripe.handle({
        method: request.method,
        path,
        query,
        body: typeof request.body === 'string' ? request.body : '',
        authorization: header('authorization'),
        idempotencyKey: header('idempotency-key'),
        stripeVersion: header('stripe-version'),
      });
      return reply.status(response.status).headers(response.headers).send(response.body);
    };
    scope.route({ method: ['GET', 'POST', 'DELETE'], url: `${prefix}/v1/*`, handler: api });

    scope.get(stripeJsPath(prefix), async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(stripeJsStandIn(stripe.options.publicUrl())),
    );

    scope.get<{ Params: { intent: string }; Querystring: { return_url?: string } }>(
      `${prefix}/authenticate/:intent`,
      async (request, reply) =>
        reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(authenticationPage(request.params.intent, request.query.return_url ?? null)),
    );

    // The page's buttons (and the stand-in Stripe.js's modal) answer here.
    scope.post<{ Params: { intent: string }; Querystring: { outcome?: string; return_url?: string } }>(
      `${prefix}/authenticate/:intent`,
      async (request, reply) => {
        const outcome = request.query.outcome;
        if (outcome !== 'complete' && outcome !== 'fail')
          return stripeError(reply, 400, 'outcome must be complete or fail');
        const intent = await stripe.authenticate(request.params.intent, outcome === 'complete');
        const back = request.query.return_url;
        if (back && /^https?:\/\//.test(back)) {
          const url = new URL(back);
          url.searchParams.set(
            intent.object === 'setup_intent' ? 'setup_intent' : 'payment_intent',
            intent.id,
          );
          url.searchParams.set(
            intent.object === 'setup_intent' ? 'setup_intent_client_secret' : 'payment_intent_client_secret',
            String(intent.client_secret),
          );
          return reply.redirect(url.toString(), 303);
        }
        return { id: intent.id, object: intent.object, status: intent.status };
      },
    );
  });
}
