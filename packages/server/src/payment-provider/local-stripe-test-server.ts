import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../storage/database.js';
import type { LocalStripe } from './local-stripe.js';
import { LOCAL_KEYS } from './payment-settings.js';
import { setUpPayments } from './setup.js';
import type { StripePaymentProvider } from './stripe-payment-provider.js';

/** The built-in provider as the service mounts it: on an app's port, under /_stripe, state in the database. */
export async function startLocalStripe(database: DatabaseHandle, webhookUrl: string | null) {
  const app: FastifyInstance = Fastify();
  const publicUrl = () => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const payments = await setUpPayments(app, {
    settings: { kind: 'local', ...LOCAL_KEYS, webhookUrl },
    database,
    publicUrl,
    pollMs: 0,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    publicUrl,
    local: payments.local as LocalStripe,
    provider: payments.provider as StripePaymentProvider,
    async close() {
      await payments.close();
      await app.close();
    },
  };
}
