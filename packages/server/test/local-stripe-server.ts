import type { AddressInfo } from 'node:net';
import { LOCAL_STRIPE_PREFIX, LocalStripe, registerLocalStripeRoutes } from '@scrub/stripe-local';
import Fastify, { type FastifyInstance } from 'fastify';
import { LOCAL_KEYS } from '../src/config/payment-settings.js';
import { StripePaymentProvider } from '../src/payment-provider/stripe-payment-provider.js';
import type { DatabaseHandle } from '../src/storage/database.js';

/**
 * The built-in provider as the service mounts it (`wiring/payments.ts`): on an app's port, under
 * /_stripe, state in the service's database; and the service's provider talking to it there.
 */
export async function startLocalStripe(database: DatabaseHandle, webhookUrl: string | null) {
  const app: FastifyInstance = Fastify();
  const publicUrl = () => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const local = new LocalStripe({
    db: database.db,
    ...LOCAL_KEYS,
    webhookUrl,
    publicUrl: () => `${publicUrl()}${LOCAL_STRIPE_PREFIX}`,
    pollMs: 0,
  });
  await registerLocalStripeRoutes(app, local, LOCAL_STRIPE_PREFIX);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const provider = new StripePaymentProvider({
    kind: 'local',
    ...LOCAL_KEYS,
    endpoint: { url: publicUrl, prefix: LOCAL_STRIPE_PREFIX },
  });
  return {
    app,
    publicUrl,
    local,
    provider,
    async close() {
      await local.close();
      await app.close();
    },
  };
}
