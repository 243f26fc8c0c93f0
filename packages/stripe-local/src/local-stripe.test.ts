import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openEmbeddedDatabase } from '@scrub/pglite-pool';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostDatabase } from './host-database.js';
import { createLocalStripeTables } from './schema.js';
import { LOCAL_STRIPE_KEYS, type RunningLocalStripe, startLocalStripe } from './start-local-stripe.js';

const sdkFor = (running: RunningLocalStripe, key: string) =>
  new Stripe(key, { host: '127.0.0.1', port: running.port, protocol: 'http', maxNetworkRetries: 0 });

describe('the provider on a database of its host', () => {
  let db: HostDatabase;
  beforeAll(async () => {
    db = await openEmbeddedDatabase();
    await createLocalStripeTables(db);
  });
  afterAll(() => db?.destroy());

  it('keeps its state in the database across restarts', async () => {
    const first = await startLocalStripe({ db, pollMs: 0 });
    const before = sdkFor(first, LOCAL_STRIPE_KEYS.secretKey);
    const customer = await before.customers.create({ email: 'kept@example.com' });
    const card = await before.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    await before.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    await first.close();
    const second = await startLocalStripe({ db, pollMs: 0 });
    const found = await sdkFor(second, LOCAL_STRIPE_KEYS.secretKey).customers.list({
      email: 'kept@example.com',
    });
    expect(found.data).toMatchObject([
      { id: customer.id, invoice_settings: { default_payment_method: card.id } },
    ]);
    await second.close();
  });

  it('retries a webhook the endpoint refused, with the same event id, until it is taken', async () => {
    let refuse = true;
    const seen: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        seen.push((JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id);
        response.statusCode = refuse ? 500 : 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const running = await startLocalStripe({ db, webhookUrl: url, pollMs: 0 });
    try {
      await sdkFor(running, LOCAL_STRIPE_KEYS.secretKey).customers.create({ email: 'hooks@example.com' });
      await expect.poll(() => seen.length).toBe(1);
      refuse = false;
      await running.stripe.db
        .updateTable('local_stripe_deliveries')
        .set({ next_attempt_at: new Date(0) })
        .execute();
      await running.stripe.deliverWebhooks();
      expect(seen).toHaveLength(2);
      expect(seen[1]).toBe(seen[0]);
      const row = await running.stripe.db
        .selectFrom('local_stripe_deliveries')
        .selectAll()
        .where('event_id', '=', seen[0]!)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: 2, last_error: null });
      expect(row.delivered_at).toBeInstanceOf(Date);
    } finally {
      await running.close();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses the publishable key outside the calls Stripe.js makes, and an unknown key everywhere', async () => {
    const running = await startLocalStripe({ db, pollMs: 0 });
    try {
      const browser = sdkFor(running, LOCAL_STRIPE_KEYS.publishableKey);
      await expect(browser.customers.list()).rejects.toThrow(/publishable API key/);
      const pm = await browser.paymentMethods.create({
        type: 'card',
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
      });
      expect(pm.card?.last4).toBe('4242');
      const stranger = sdkFor(running, 'sk_test_wrong');
      await expect(stranger.customers.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    } finally {
      await running.close();
    }
  });
});
