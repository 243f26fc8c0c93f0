import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import type { PaymentsSetup } from '../payment-provider/payment-provider.js';
import type { DatabaseHandle } from '../storage/database.js';
import { AutoTopUpSettingsStore } from './auto-top-up-settings.js';
import { BalanceWatch } from './balance-watch.js';
import { CardPayments } from './card-payments.js';
import { PaymentLinks } from './payment-links.js';
import { PlanPrices } from './plan-prices.js';
import { Refunds } from './refunds.js';
import { Subscriptions } from './subscriptions.js';
import { WebhookEvents } from './webhook-events.js';
import { registerWebhookRoute } from './webhook-route.js';

export interface PaymentServicesSetup {
  /** The provider and its mode (for `/config`). */
  setup: PaymentsSetup;
  cards: CardPayments;
  subscriptions: Subscriptions;
  webhooks: WebhookEvents;
  refunds: Refunds;
  links: PaymentLinks;
  /** Auto top-up and low-balance e-mail settings. */
  autoTopUps: AutoTopUpSettingsStore;
  /** Acts on balances after charges: auto top-up, the low-balance e-mail. */
  balanceWatch: BalanceWatch;
}

/** The service's side of payments on a provider, and the provider's webhook route. */
export function createPaymentServices(
  app: FastifyInstance,
  setup: PaymentsSetup,
  database: DatabaseHandle,
  mailer: Mailer,
  publicUrl: () => string,
  logger: Logger | false = false,
): PaymentServicesSetup {
  const { provider } = setup;
  const links = new PaymentLinks(database.db, publicUrl);
  const services = {
    db: database.db,
    provider,
    mailer,
    prices: new PlanPrices(database.db, provider),
    links,
  };
  const cards = new CardPayments(services);
  const refunds = new Refunds(services);
  const webhooks = new WebhookEvents(services, cards, refunds);
  registerWebhookRoute(app, provider, webhooks);
  return {
    setup,
    cards,
    subscriptions: new Subscriptions(services, cards),
    webhooks,
    refunds,
    links,
    autoTopUps: new AutoTopUpSettingsStore(database.db, services.prices, cards),
    balanceWatch: new BalanceWatch({ services, cards, publicUrl, logger }),
  };
}
