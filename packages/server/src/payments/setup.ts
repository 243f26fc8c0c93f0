import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../mail/mailer.js';
import type { PaymentsSetup } from '../payment-provider/setup.js';
import type { DatabaseHandle } from '../storage/database.js';
import { CardPayments } from './card-payments.js';
import { PlanPrices } from './plan-prices.js';
import { Subscriptions } from './subscriptions.js';
import { WebhookEvents } from './webhook-events.js';
import { registerWebhookRoute } from './webhook-route.js';

export interface PaymentServicesSetup {
  /** The provider and its mode (for `/config`). */
  setup: PaymentsSetup;
  cards: CardPayments;
  subscriptions: Subscriptions;
  webhooks: WebhookEvents;
}

/** The service's side of payments on a provider, and the provider's webhook route. */
export function createPaymentServices(
  app: FastifyInstance,
  setup: PaymentsSetup,
  database: DatabaseHandle,
  mailer: Mailer,
): PaymentServicesSetup {
  const { provider } = setup;
  const services = { db: database.db, provider, mailer, prices: new PlanPrices(database.db, provider) };
  const cards = new CardPayments(services);
  const webhooks = new WebhookEvents(services, cards);
  registerWebhookRoute(app, provider, webhooks);
  return { setup, cards, subscriptions: new Subscriptions(services, cards), webhooks };
}
