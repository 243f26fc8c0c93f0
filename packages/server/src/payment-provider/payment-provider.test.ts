import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStripe } from '../../test/local-stripe-server.js';
import { LOCAL_KEYS } from '../config/payment-settings.js';
import { migrateToLatest, openDatabase } from '../storage/database.js';
import { signWebhook } from '../webhooks/webhook-signature.js';
import type { PaymentProvider } from './payment-provider.js';
import { StripePaymentProvider } from './stripe-payment-provider.js';

interface Delivery {
  body: string;
  signature: string;
}

/** One provider under test, and what the two setups legitimately do differently. */
interface Subject {
  provider: StripePaymentProvider;
  webhookSecret: string;
  /** The built-in provider takes card numbers from the server; Stripe refuses raw card data by default. */
  rawCardNumbers: boolean;
  /**
   * Plays the customer on the 3-D Secure page: the built-in provider has one; Stripe's needs a
   * browser, so those steps run locally only.
   */
  authenticate: ((intentId: string, approve: boolean) => Promise<void>) | null;
  /** Webhook deliveries received, when an endpoint can be reached (the built-in provider's). */
  deliveries: Delivery[] | null;
  close(): Promise<void>;
}

async function webhookReceiver() {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({
        body: Buffer.concat(chunks).toString(),
        signature: String(request.headers['stripe-signature']),
      });
      response.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    deliveries,
    url: `http://127.0.0.1:${port}/hooks/stripe`,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function localSubject(): Promise<Subject> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
  const hooks = await webhookReceiver();
  const server = await startLocalStripe(database, hooks.url);
  return {
    provider: server.provider,
    webhookSecret: LOCAL_KEYS.webhookSecret,
    rawCardNumbers: true,
    authenticate: async (intentId, approve) => {
      await server.local.authenticate(intentId, approve);
    },
    deliveries: hooks.deliveries,
    async close() {
      await server.close();
      await hooks.close();
      await database.close();
    },
  };
}

async function stripeSubject(): Promise<Subject> {
  const secretKey = process.env.STRIPE_SECRET_KEY!;
  const webhookSecret = 'whsec_scrub_test_suite';
  return {
    provider: new StripePaymentProvider({
      kind: 'stripe',
      secretKey,
      publishableKey: process.env.STRIPE_PUBLISHABLE_KEY ?? 'pk_test_unused',
      webhookSecret,
    }),
    webhookSecret,
    rawCardNumbers: false,
    authenticate: null,
    deliveries: null,
    close: async () => {},
  };
}

const stripeTestMode = process.env.STRIPE_SECRET_KEY?.startsWith('sk_test_') ?? false;

const key = () => randomUUID();
const email = () => `payer-${randomUUID()}@example.com`;

describe.each([
  { name: 'built-in', start: localSubject, enabled: true },
  { name: 'Stripe test mode', start: stripeSubject, enabled: stripeTestMode },
])('the $name payment provider', ({ start, enabled }) => {
  let subject: Subject;
  let provider: PaymentProvider;
  let stripe: InstanceType<typeof Stripe>;

  beforeAll(async () => {
    if (!enabled) return;
    subject = await start();
    provider = subject.provider;
    stripe = await subject.provider.stripe();
  });
  afterAll(() => subject?.close());

  /** A customer whose default card is the given test payment method. */
  async function customerWithCard(testCard: string) {
    const customer = await provider.ensureCustomer({ email: email() });
    await provider.setDefault(customer.id, testCard);
    return customer;
  }

  describe.skipIf(!enabled)('', () => {
    it('finds or creates one customer per e-mail, even for concurrent first calls', async () => {
      const address = email();
      expect(await provider.findCustomer(address)).toBeNull();
      const [a, b, c] = await Promise.all(
        [1, 2, 3].map(() => provider.ensureCustomer({ email: address, name: 'Ann' })),
      );
      expect(new Set([a!.id, b!.id, c!.id]).size).toBe(1);
      expect(a).toMatchObject({ email: address, name: 'Ann', defaultPaymentMethodId: null });
      expect((await provider.findCustomer(address))?.id).toBe(a!.id);
    });

    it('saves a card through a setup intent and makes it the default', async () => {
      const customer = await provider.ensureCustomer({ email: email() });
      const result = await provider.setupCard({
        customerId: customer.id,
        paymentMethodId: 'pm_card_visa',
        billingDetails: {
          name: 'Ann Payer',
          address: { line1: '1 Main St', city: 'Austin', state: 'TX', country: 'US' },
        },
        idempotencyKey: key(),
      });
      expect(result).toMatchObject({ status: 'succeeded', card: { brand: 'visa', last4: '4242' } });
      const saved = await provider.listPaymentMethods(customer.id);
      expect(saved.cards.map((c) => c.last4)).toEqual(['4242']);
      expect(saved.defaultId).toBe(saved.cards[0]!.id);
      const pm = await stripe.paymentMethods.retrieve(saved.cards[0]!.id);
      expect(pm.billing_details).toMatchObject({
        name: 'Ann Payer',
        address: { line1: '1 Main St', city: 'Austin' },
      });
    });

    it.each([
      ['pm_card_chargeDeclined', 'card_declined', 'generic_decline', 'Your card was declined.'],
      [
        'pm_card_chargeDeclinedInsufficientFunds',
        'card_declined',
        'insufficient_funds',
        'Your card has insufficient funds.',
      ],
    ])('refuses to save %s (%s / %s) and keeps nothing', async (card, code, declineCode, message) => {
      const customer = await provider.ensureCustomer({ email: email() });
      const result = await provider.setupCard({
        customerId: customer.id,
        paymentMethodId: card,
        idempotencyKey: key(),
      });
      expect(result).toEqual({ status: 'declined', code, declineCode, message });
      expect(await provider.listPaymentMethods(customer.id)).toEqual({ cards: [], defaultId: null });
    });

    it('charges the default card once per idempotency key', async () => {
      const customer = await customerWithCard('pm_card_visa');
      const input = {
        customerId: customer.id,
        amount: 1099,
        currency: 'usd',
        description: 'STANDARD plan',
        idempotencyKey: key(),
        offSession: true,
      };
      const first = await provider.charge(input);
      expect(first).toMatchObject({ status: 'succeeded', amount: 1099, currency: 'usd' });
      const again = await provider.charge(input);
      expect(again).toEqual(first);
      const intents = await stripe.paymentIntents.list({ customer: customer.id });
      expect(intents.data.map((i) => i.id)).toEqual([(first as { paymentIntentId: string }).paymentIntentId]);
    });

    it('refunds part of a charge, then the rest, once per key; more than is left is refused; charge.refunded is sent', async () => {
      const customer = await customerWithCard('pm_card_visa');
      const paid = await provider.charge({
        customerId: customer.id,
        amount: 1000,
        currency: 'usd',
        description: 'FLEXIBLE CREDITS',
        idempotencyKey: key(),
        offSession: true,
        metadata: { scrub_plan_reference: 'payg' },
      });
      expect(paid).toMatchObject({ status: 'succeeded', metadata: { scrub_plan_reference: 'payg' } });
      const paymentIntentId = (paid as { paymentIntentId: string }).paymentIntentId;
      const first = {
        paymentIntentId,
        amount: 400,
        idempotencyKey: key(),
        metadata: { scrub_reason: 'duplicate' },
      };
      const part = await provider.refund(first);
      expect(part).toMatchObject({ id: expect.stringMatching(/^re_/), paymentIntentId, amount: 400 });
      expect(part.metadata).toEqual({ scrub_reason: 'duplicate' });
      expect(await provider.refund(first)).toEqual(part);
      await expect(
        provider.refund({ paymentIntentId, amount: 700, idempotencyKey: key() }),
      ).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        param: 'amount',
      });
      const rest = await provider.refund({ paymentIntentId, idempotencyKey: key() });
      expect(rest.amount).toBe(600);
      expect((await provider.listRefunds(paymentIntentId)).map((r) => r.id)).toEqual([part.id, rest.id]);
      const charge = await stripe.charges.retrieve(
        String((await stripe.paymentIntents.retrieve(paymentIntentId)).latest_charge),
      );
      expect(charge).toMatchObject({ amount_refunded: 1000, refunded: true });
      await expect(provider.refund({ paymentIntentId, idempotencyKey: key() })).rejects.toMatchObject({
        code: 'charge_already_refunded',
      });
      const events = await stripe.events.list({ type: 'charge.refunded', limit: 5 });
      expect(events.data.some((e) => (e.data.object as { id: string }).id === charge.id)).toBe(true);
    });

    it('refuses an idempotency key reused with another request', async () => {
      const customer = await customerWithCard('pm_card_visa');
      const idempotencyKey = key();
      const base = {
        customerId: customer.id,
        currency: 'usd',
        description: 'x',
        idempotencyKey,
        offSession: true,
      };
      await provider.charge({ ...base, amount: 500 });
      const error = await provider.charge({ ...base, amount: 700 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect((error as Error).message).toMatch(/same parameters/);
    });

    it('answers the same body, replayed by hand with the same key, with the first response', async () => {
      const idempotencyKey = key();
      const params = { email: email(), metadata: { profile: 'p-1' } };
      const first = await stripe.customers.create(params, { idempotencyKey });
      const second = await stripe.customers.create(params, { idempotencyKey });
      expect(second.id).toBe(first.id);
      expect((await stripe.customers.list({ email: params.email })).data).toHaveLength(1);
    });

    it('declines a card that saved fine but is refused at charge time, adding no payment', async () => {
      const customer = await customerWithCard('pm_card_chargeCustomerFail');
      const result = await provider.charge({
        customerId: customer.id,
        amount: 500,
        currency: 'usd',
        description: 'x',
        idempotencyKey: key(),
        offSession: true,
      });
      expect(result).toMatchObject({
        status: 'declined',
        code: 'card_declined',
        declineCode: 'generic_decline',
        message: 'Your card was declined.',
      });
      const intent = await stripe.paymentIntents.retrieve(
        (result as { paymentIntentId: string }).paymentIntentId,
      );
      expect(intent.status).toBe('requires_payment_method');
      expect(intent.amount_received).toBe(0);
    });

    it.each([
      ['pm_card_chargeDeclined', 'generic_decline'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ])('declines a charge on %s with %s', async (card, declineCode) => {
      const customer = await provider.ensureCustomer({ email: email() });
      const result = await provider.charge({
        customerId: customer.id,
        paymentMethodId: card,
        amount: 500,
        currency: 'usd',
        description: 'x',
        idempotencyKey: key(),
        offSession: false,
      });
      expect(result).toMatchObject({ status: 'declined', code: 'card_declined', declineCode });
    });

    it('asks for 3-D Secure on an off-session charge, and charges once the customer completes it', async () => {
      const customer = await customerWithCard('pm_card_authenticationRequired');
      const charge = () =>
        provider.charge({
          customerId: customer.id,
          amount: 2000,
          currency: 'usd',
          description: 'x',
          idempotencyKey: key(),
          offSession: true,
        });
      const pending = await charge();
      expect(pending).toMatchObject({
        status: 'requires_action',
        clientSecret: expect.stringMatching(/^pi_.+_secret_/),
      });
      const { paymentIntentId } = pending as { paymentIntentId: string };
      if (!subject.authenticate) return;
      // The customer, back on-session, confirms in the browser (stripe.confirmCardPayment).
      await stripe.paymentIntents.confirm(paymentIntentId, {});
      expect((await stripe.paymentIntents.retrieve(paymentIntentId)).status).toBe('requires_action');
      await subject.authenticate(paymentIntentId, true);
      expect(await provider.getCharge(paymentIntentId)).toMatchObject({ status: 'succeeded', amount: 2000 });

      const failed = (await charge()) as { paymentIntentId: string };
      await stripe.paymentIntents.confirm(failed.paymentIntentId, {});
      await subject.authenticate(failed.paymentIntentId, false);
      expect(await provider.getCharge(failed.paymentIntentId)).toMatchObject({
        status: 'declined',
        code: 'payment_intent_authentication_failure',
      });
    });

    it('asks for 3-D Secure when saving a card that needs it, then charges it off-session without asking', async () => {
      const customer = await provider.ensureCustomer({ email: email() });
      const setup = await provider.setupCard({
        customerId: customer.id,
        paymentMethodId: 'pm_card_authenticationRequiredOnSetup',
        idempotencyKey: key(),
      });
      expect(setup).toMatchObject({
        status: 'requires_action',
        clientSecret: expect.stringMatching(/^seti_.+_secret_/),
      });
      if (!subject.authenticate) return;
      const { setupIntentId } = setup as { setupIntentId: string };
      await subject.authenticate(setupIntentId, true);
      const intent = await stripe.setupIntents.retrieve(setupIntentId);
      expect(intent.status).toBe('succeeded');
      await provider.setDefault(customer.id, String(intent.payment_method));
      const charged = await provider.charge({
        customerId: customer.id,
        amount: 500,
        currency: 'usd',
        description: 'x',
        idempotencyKey: key(),
        offSession: true,
      });
      expect(charged).toMatchObject({ status: 'succeeded' });
    });

    it('takes test card numbers as Stripe test mode does (built-in only: Stripe refuses raw card data)', async () => {
      if (!subject.rawCardNumbers) return;
      const year = new Date().getUTCFullYear() + 3;
      const create = (number: string) =>
        stripe.paymentMethods.create({
          type: 'card',
          card: { number, exp_month: 12, exp_year: year, cvc: '123' },
        });
      const customer = await provider.ensureCustomer({ email: email() });
      const pay = async (number: string) => {
        const pm = await create(number);
        return provider.charge({
          customerId: customer.id,
          paymentMethodId: pm.id,
          amount: 500,
          currency: 'usd',
          description: 'x',
          idempotencyKey: key(),
          offSession: false,
        });
      };
      expect(await pay('4242424242424242')).toMatchObject({ status: 'succeeded' });
      expect(await pay('4000000000000002')).toMatchObject({
        status: 'declined',
        declineCode: 'generic_decline',
      });
      expect(await pay('4000000000009995')).toMatchObject({
        status: 'declined',
        declineCode: 'insufficient_funds',
      });
      expect(await pay('4000002500003155')).toMatchObject({ status: 'requires_action' });
      const bad = await create('4242424242424241').catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(bad).toMatchObject({ code: 'incorrect_number', statusCode: 402 });
      const expired = await stripe.paymentMethods
        .create({
          type: 'card',
          card: { number: '4242424242424242', exp_month: 1, exp_year: 2020, cvc: '123' },
        })
        .catch((e: unknown) => e);
      expect(expired).toMatchObject({ code: 'invalid_expiry_year', statusCode: 402 });
    });

    it('answers unknown objects with 404 resource_missing', async () => {
      const error = await stripe.customers.retrieve('cus_doesnotexist').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });

    describe('subscriptions', () => {
      let priceId: string;
      let otherPriceId: string;
      const lookup = `scrub-test-${randomUUID().slice(0, 8)}`;

      beforeAll(async () => {
        if (!enabled) return;
        priceId = await provider.ensurePrice({
          lookupKey: `${lookup}-power`,
          productName: 'POWER',
          amount: 4900,
          currency: 'usd',
          interval: 'month',
        });
        otherPriceId = await provider.ensurePrice({
          lookupKey: `${lookup}-elite`,
          productName: 'ELITE',
          amount: 9900,
          currency: 'usd',
          interval: 'month',
        });
      });

      it('finds a price by lookup key rather than making another', async () => {
        const again = await provider.ensurePrice({
          lookupKey: `${lookup}-power`,
          productName: 'POWER',
          amount: 4900,
          currency: 'usd',
          interval: 'month',
        });
        expect(again).toBe(priceId);
      });

      it('subscribes, pays the first month (invoice.paid), switches, pauses, resumes and cancels at period end', async () => {
        const customer = await customerWithCard('pm_card_visa');
        const result = await provider.subscribe({ customerId: customer.id, priceId, idempotencyKey: key() });
        expect(result.status).toBe('active');
        const { subscription } = result as {
          subscription: {
            id: string;
            currentPeriodStart: number;
            currentPeriodEnd: number;
            latestInvoiceId: string;
          };
        };
        const days = (subscription.currentPeriodEnd - subscription.currentPeriodStart) / 86_400;
        expect(days).toBeGreaterThanOrEqual(28);
        expect(days).toBeLessThanOrEqual(31);
        const invoice = await stripe.invoices.retrieve(subscription.latestInvoiceId);
        expect(invoice).toMatchObject({
          status: 'paid',
          amount_paid: 4900,
          billing_reason: 'subscription_create',
        });
        await expect
          .poll(async () =>
            (await stripe.events.list({ type: 'invoice.paid', limit: 50 })).data.map(
              (e) => (e.data.object as { id: string }).id,
            ),
          )
          .toContain(invoice.id);

        const switched = await provider.switchPrice(subscription.id, otherPriceId, key());
        expect(switched).toMatchObject({ priceId: otherPriceId, status: 'active' });
        expect(await provider.pause(subscription.id, key())).toMatchObject({ paused: true });
        expect(await provider.resume(subscription.id, key())).toMatchObject({ paused: false });
        const ending = await provider.cancelAtPeriodEnd(subscription.id, key());
        expect(ending).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
        expect(await provider.cancelAtPeriodEnd(subscription.id, key(), true)).toMatchObject({
          cancelAtPeriodEnd: false,
        });
      });

      it('leaves no subscription behind when the card is declined', async () => {
        const customer = await customerWithCard('pm_card_chargeCustomerFail');
        const result = await provider.subscribe({ customerId: customer.id, priceId, idempotencyKey: key() });
        expect(result).toMatchObject({ status: 'declined', code: 'card_declined' });
        const left = await stripe.subscriptions.list({ customer: customer.id });
        expect(left.data).toEqual([]);
      });

      it('renews each month on a test clock: a new paid invoice per period, voided while paused, ended when cancelled', async () => {
        const now = Math.floor(Date.now() / 1000);
        const clock = await stripe.testHelpers.testClocks.create({ frozen_time: now });
        const customer = await stripe.customers.create({ email: email(), test_clock: clock.id });
        await provider.setDefault(customer.id, 'pm_card_visa');
        const result = await provider.subscribe({ customerId: customer.id, priceId, idempotencyKey: key() });
        const { subscription } = result as { subscription: { id: string; currentPeriodEnd: number } };
        const advance = async (to: number) => {
          await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: to });
          await expect
            .poll(async () => (await stripe.testHelpers.testClocks.retrieve(clock.id)).status, {
              timeout: 60_000,
            })
            .toBe('ready');
        };
        const invoices = async () =>
          (await stripe.invoices.list({ subscription: subscription.id })).data.map((i) => [
            i.billing_reason,
            i.status,
          ]);

        await advance(subscription.currentPeriodEnd + 3600);
        expect(await invoices()).toEqual([
          ['subscription_cycle', 'paid'],
          ['subscription_create', 'paid'],
        ]);
        const renewed = await provider.getSubscription(subscription.id);
        expect(renewed!.currentPeriodStart).toBe(subscription.currentPeriodEnd);

        await provider.pause(subscription.id, key());
        await advance(renewed!.currentPeriodEnd + 3600);
        expect((await invoices())[0]).toEqual(['subscription_cycle', 'void']);

        await provider.resume(subscription.id, key());
        await provider.cancelAtPeriodEnd(subscription.id, key());
        const last = await provider.getSubscription(subscription.id);
        await advance(last!.currentPeriodEnd + 3600);
        expect((await provider.getSubscription(subscription.id))?.status).toBe('canceled');
        expect(await invoices()).toHaveLength(3);
      });
    });

    describe('webhooks', () => {
      const payload = () =>
        JSON.stringify({
          id: `evt_${randomUUID()}`,
          object: 'event',
          type: 'invoice.paid',
          created: 1,
          data: { object: { id: 'in_1', object: 'invoice' } },
        });

      it('verifies a signed delivery and refuses a tampered body or another secret', async () => {
        const body = payload();
        const header = signWebhook(body, subject.webhookSecret);
        expect((await provider.verifyWebhook(body, header)).type).toBe('invoice.paid');
        expect((await provider.verifyWebhook(Buffer.from(body), header)).type).toBe('invoice.paid');
        await expect(provider.verifyWebhook(body.replace('in_1', 'in_2'), header)).rejects.toThrow(
          /signature/i,
        );
        await expect(provider.verifyWebhook(body, signWebhook(body, 'whsec_other'))).rejects.toThrow(
          /signature/i,
        );
        await expect(provider.verifyWebhook(body, 'nonsense')).rejects.toThrow();
      });

      it('refuses a delivery replayed after the 5-minute tolerance', async () => {
        const body = payload();
        const old = signWebhook(body, subject.webhookSecret, Math.floor(Date.now() / 1000) - 301);
        await expect(provider.verifyWebhook(body, old)).rejects.toThrow(/tolerance/i);
      });

      it('posts each event to the endpoint, signed so that the provider verifies it', async () => {
        if (!subject.deliveries) return;
        const customer = await customerWithCard('pm_card_visa');
        await provider.charge({
          customerId: customer.id,
          amount: 800,
          currency: 'usd',
          description: 'x',
          idempotencyKey: key(),
          offSession: true,
        });
        const deliveries = subject.deliveries!;
        const succeeded = async () =>
          (await Promise.all(deliveries.map((d) => provider.verifyWebhook(d.body, d.signature)))).filter(
            (e) => e.type === 'payment_intent.succeeded' && e.data.object.customer === customer.id,
          );
        await expect.poll(async () => (await succeeded()).length).toBe(1);
        const event = (await succeeded())[0]!;
        expect(await stripe.events.retrieve(event.id)).toMatchObject({
          id: event.id,
          type: 'payment_intent.succeeded',
        });
      });
    });
  });
});
