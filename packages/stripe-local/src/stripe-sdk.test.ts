import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_KEYS, type RunningLocalStripe, startLocalStripe } from './start-local-stripe.js';

/**
 * The real `stripe` SDK against the provider run on its own, as a developer would point a service
 * at it: only host, port and protocol differ from Stripe. (The Scrub server's own suite,
 * `packages/server/src/payment-provider/payment-provider.test.ts`, covers the service's provider on it.)
 */
let running: RunningLocalStripe;
let stripe: Stripe;
let hooks: Server;
const events: { type: string; signature: string; body: string }[] = [];

beforeAll(async () => {
  hooks = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      events.push({
        type: JSON.parse(body).type,
        signature: String(request.headers['stripe-signature']),
        body,
      });
      response.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  running = await startLocalStripe({
    pollMs: 0,
    webhookUrl: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`,
  });
  stripe = new Stripe(LOCAL_STRIPE_KEYS.secretKey, {
    host: '127.0.0.1',
    port: running.port,
    protocol: 'http',
  });
});
afterAll(async () => {
  await running?.close();
  await new Promise((resolve) => hooks?.close(resolve));
});

describe('the stripe SDK against startLocalStripe()', () => {
  it('saves a test card on a customer and charges it off-session', async () => {
    const customer = await stripe.customers.create({ email: 'ann@example.com', name: 'Ann' });
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    expect(card).toMatchObject({
      type: 'card',
      customer: customer.id,
      card: { brand: 'visa', last4: '4242' },
    });
    const intent = await stripe.paymentIntents.create({
      amount: 1999,
      currency: 'usd',
      customer: customer.id,
      payment_method: card.id,
      off_session: true,
      confirm: true,
    });
    expect(intent).toMatchObject({ status: 'succeeded', amount: 1999, amount_received: 1999 });
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 500 });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 500 });
  });

  it("finds a subscription invoice's payment, and a payment's invoice, to refund it", async () => {
    const customer = await stripe.customers.create({ email: 'dee@example.com' });
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: 4900,
      recurring: { interval: 'month' },
      product_data: { name: 'Monthly' },
    });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: card.id,
    });
    const invoiceId = String(subscription.latest_invoice);
    const [paid] = (await stripe.invoicePayments.list({ invoice: invoiceId })).data;
    expect(paid).toMatchObject({
      object: 'invoice_payment',
      invoice: invoiceId,
      status: 'paid',
      amount_paid: 4900,
      payment: { type: 'payment_intent', payment_intent: expect.stringMatching(/^pi_/) },
    });
    const intentId = String(paid?.payment.payment_intent);
    const byPayment = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: intentId },
    });
    expect(byPayment.data.map((row) => row.invoice)).toEqual([invoiceId]);
    const refund = await stripe.refunds.create({ payment_intent: intentId });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 4900 });
  });

  it('declines the decline test card when it is attached, as Stripe does', async () => {
    const customer = await stripe.customers.create({ email: 'bob@example.com' });
    const declined = await stripe.paymentMethods
      .attach('pm_card_chargeDeclined', { customer: customer.id })
      .catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
  });

  it('answers the same idempotency key with the same object', async () => {
    const first = await stripe.customers.create({ email: 'cat@example.com' }, { idempotencyKey: 'once' });
    const again = await stripe.customers.create({ email: 'cat@example.com' }, { idempotencyKey: 'once' });
    expect(again.id).toBe(first.id);
  });

  it('posts signed events that the SDK verifies with the webhook secret', async () => {
    await running.stripe.deliverWebhooks();
    const created = events.find((e) => e.type === 'customer.created');
    expect(created).toBeDefined();
    const event = stripe.webhooks.constructEvent(
      created!.body,
      created!.signature,
      LOCAL_STRIPE_KEYS.webhookSecret,
    );
    expect(event.type).toBe('customer.created');
    const listed = await stripe.events.list({ type: 'payment_intent.succeeded' });
    expect(listed.data.length).toBeGreaterThan(0);
  });
});
