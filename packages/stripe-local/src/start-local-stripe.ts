import type { AddressInfo } from 'node:net';
import { openEmbeddedDatabase } from '@scrub/pglite-pool';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { HostDatabase } from './host-database.js';
import { LocalStripe } from './local-stripe.js';
import { registerLocalStripeRoutes, stripeJsPath } from './local-stripe-routes.js';
import { createLocalStripeTables } from './schema.js';

/** Keys the provider answers to when none are given: test-mode names that open nothing elsewhere. */
export const LOCAL_STRIPE_KEYS = {
  secretKey: 'sk_test_local',
  publishableKey: 'pk_test_local',
  webhookSecret: 'whsec_local',
} as const;

export interface StartLocalStripeOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  host?: string;
  secretKey?: string;
  publishableKey?: string;
  webhookSecret?: string;
  /** Where events are posted, signed with `webhookSecret`; null (the default) keeps them for `GET /v1/events`. */
  webhookUrl?: string | null;
  /**
   * A database that has the provider's tables (`createLocalStripeTables`); the caller closes it.
   * Without one, a fresh in-memory database, closed with the provider.
   */
  db?: HostDatabase;
  /** Background work (webhook retries, renewals), in ms; 0 turns it off. */
  pollMs?: number;
  logger?: FastifyBaseLogger | false;
}

export interface RunningLocalStripe {
  /** `http://127.0.0.1:<port>`: the `stripe` SDK's `host`, `port` and `protocol: 'http'` point here. */
  url: string;
  port: number;
  /** The stand-in Stripe.js: load it with a `<script>` instead of `https://js.stripe.com/...`. */
  stripeJsUrl: string;
  stripe: LocalStripe;
  close(): Promise<void>;
}

/**
 * The provider on a port of its own, Stripe's paths at the root (`/v1/customers`, ...), so the
 * real `stripe` SDK talks to it as to Stripe:
 * `new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http' })`.
 */
export async function startLocalStripe(options: StartLocalStripeOptions = {}): Promise<RunningLocalStripe> {
  const db = options.db ?? (await openEmbeddedDatabase());
  if (!options.db) await createLocalStripeTables(db);
  const app = Fastify({ loggerInstance: options.logger || undefined });
  const url = () => `http://${options.host ?? '127.0.0.1'}:${(app.server.address() as AddressInfo).port}`;
  const stripe = new LocalStripe({
    db,
    secretKey: options.secretKey ?? LOCAL_STRIPE_KEYS.secretKey,
    publishableKey: options.publishableKey ?? LOCAL_STRIPE_KEYS.publishableKey,
    webhookSecret: options.webhookSecret ?? LOCAL_STRIPE_KEYS.webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    publicUrl: url,
    logger: options.logger ?? false,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  await registerLocalStripeRoutes(app, stripe, '');
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    url: url(),
    port: (app.server.address() as AddressInfo).port,
    stripeJsUrl: `${url()}${stripeJsPath('')}`,
    stripe,
    async close() {
      await stripe.close();
      await app.close();
      if (!options.db) await db.destroy();
    },
  };
}
