import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticationPage } from './authentication-page.js';
import type { LocalStripe } from './local-stripe.js';
import { stripeJsStandIn } from './stripe-js-stand-in.js';

/** Where the built-in provider lives on the service's port: `<public URL>/_stripe/v1/...`. */
export const LOCAL_STRIPE_PREFIX = '/_stripe';
/** The stand-in Stripe.js, served in local mode only: load it with a `<script>` before the app. */
export const STRIPE_JS_PATH = `${LOCAL_STRIPE_PREFIX}/js/v3`;

const FORM = 'application/x-www-form-urlencoded';

const stripeError = (reply: FastifyReply, status: number, message: string) =>
  reply
    .status(status)
    .send({ error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } });

/**
 * Serves the built-in provider in a scope of its own, so its form body parser and its
 * Stripe-shaped errors (`{"error": {...}}`) apply here only, never the API's envelope:
 * - `/_stripe/v1/*`: Stripe's REST API (point the `stripe` SDK's host/port/protocol here);
 * - `/_stripe/js/v3`: the stand-in Stripe.js;
 * - `/_stripe/authenticate/:intent`: the 3-D Secure test page ("Complete" / "Fail").
 */
export async function registerLocalStripeRoutes(
  app: FastifyInstance,
  stripe: LocalStripe,
  publicUrl: () => string,
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
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const response = await stripe.handle({
        method: request.method,
        path: request.params['*'],
        query,
        body: typeof request.body === 'string' ? request.body : '',
        authorization: header('authorization'),
        idempotencyKey: header('idempotency-key'),
        stripeVersion: header('stripe-version'),
      });
      return reply.status(response.status).headers(response.headers).send(response.body);
    };
    scope.route({ method: ['GET', 'POST', 'DELETE'], url: `${LOCAL_STRIPE_PREFIX}/v1/*`, handler: api });

    scope.get(STRIPE_JS_PATH, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(stripeJsStandIn(`${publicUrl()}${LOCAL_STRIPE_PREFIX}`)),
    );

    scope.get<{ Params: { intent: string }; Querystring: { return_url?: string } }>(
      `${LOCAL_STRIPE_PREFIX}/authenticate/:intent`,
      async (request, reply) =>
        reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(authenticationPage(request.params.intent, request.query.return_url ?? null)),
    );

    // The page's buttons (and the stand-in Stripe.js's modal) answer here.
    scope.post<{ Params: { intent: string }; Querystring: { outcome?: string; return_url?: string } }>(
      `${LOCAL_STRIPE_PREFIX}/authenticate/:intent`,
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
