import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { type PaymentProvider, WebhookSignatureError } from '../payment-provider/payment-provider.js';
import type { WebhookEvents } from './webhook-events.js';

/** Where the provider posts its events (Stripe Dashboard: Developers, Webhooks). */
export const WEBHOOK_PATH = '/webhooks/stripe';

/**
 * The provider's webhook: not part of the API contract (the provider calls it, not clients). The
 * signature covers the exact bytes sent, so the body is read raw and verified before any parsing.
 */
export function registerWebhookRoute(
  app: FastifyInstance,
  provider: PaymentProvider,
  events: WebhookEvents,
): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(WEBHOOK_PATH, async (request) => {
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        throw new ApiError('bad_request', 'A webhook delivery needs a body and a Stripe-Signature header.');
      }
      let event: Awaited<ReturnType<PaymentProvider['verifyWebhook']>>;
      try {
        event = await provider.verifyWebhook(request.body, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw new ApiError('bad_request', error.message);
        throw error;
      }
      await events.handle(event);
      return { received: true };
    });
  });
}
