import {
  LOCAL_STRIPE_PREFIX,
  LocalStripe,
  registerLocalStripeRoutes,
  stripeJsPath,
} from '@scrub/stripe-local';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { PaymentSettings } from '../config/payment-settings.js';
import type { PaymentsSetup } from '../payment-provider/payment-provider.js';
import { StripePaymentProvider } from '../payment-provider/stripe-payment-provider.js';
import type { DatabaseHandle } from '../storage/database.js';

export interface PaymentsSetupOptions {
  settings: PaymentSettings;
  database: DatabaseHandle;
  /** The service's public URL: the built-in provider is reached there, under `/_stripe`. */
  publicUrl: () => string;
  logger?: Logger | false;
  /**
   * Where the built-in provider posts its events when SCRUB_STRIPE_WEBHOOK_URL is not set: the
   * service's own webhook route, so subscriptions renew with no configuration.
   */
  defaultWebhookUrl?: () => string;
  /** Background work of the built-in provider (webhook retries, renewals); 0 turns it off (tests). */
  pollMs?: number;
}

/**
 * Payments for the service. With Stripe's keys: the provider talks to Stripe. Without: the
 * built-in provider (@scrub/stripe-local) is served on the service's own port under `/_stripe`
 * (API, stand-in Stripe.js, 3-D Secure page), and the same provider code talks to it there.
 */
export async function setUpPayments(
  app: FastifyInstance,
  options: PaymentsSetupOptions,
): Promise<PaymentsSetup> {
  const { settings } = options;
  if (settings.kind === 'stripe') {
    return {
      provider: new StripePaymentProvider({
        kind: 'stripe',
        secretKey: settings.secretKey,
        publishableKey: settings.publishableKey,
        webhookSecret: settings.webhookSecret,
      }),
      stripeJsUrl: () => 'https://js.stripe.com/endive/stripe.js',
      close: async () => {},
    };
  }
  const local = new LocalStripe({
    db: options.database.db,
    secretKey: settings.secretKey,
    publishableKey: settings.publishableKey,
    webhookSecret: settings.webhookSecret,
    webhookUrl: settings.webhookUrl ?? options.defaultWebhookUrl ?? null,
    publicUrl: () => `${options.publicUrl()}${LOCAL_STRIPE_PREFIX}`,
    logger: options.logger ?? false,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  await registerLocalStripeRoutes(app, local, LOCAL_STRIPE_PREFIX);
  return {
    provider: new StripePaymentProvider({
      kind: 'local',
      secretKey: settings.secretKey,
      publishableKey: settings.publishableKey,
      webhookSecret: settings.webhookSecret,
      endpoint: { url: options.publicUrl, prefix: LOCAL_STRIPE_PREFIX },
    }),
    stripeJsUrl: () => `${options.publicUrl()}${stripeJsPath(LOCAL_STRIPE_PREFIX)}`,
    close: () => local.close(),
  };
}
