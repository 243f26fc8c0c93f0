import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import type {
  CardSummary,
  ChargeInput,
  ChargeResult,
  CustomerSummary,
  Decline,
  PaymentProvider,
  RefundSummary,
  SetupResult,
  SubscribeResult,
  SubscriptionSummary,
  WebhookEvent,
} from './payment-provider.js';
import { WebhookSignatureError } from './payment-provider.js';
import { loadStripe, stripeErrors } from './stripe-sdk.js';

// Over 500 lines, kept whole: one class implementing PaymentProvider on the official `stripe` SDK,
// a method per call of the interface, for Stripe and the built-in provider alike; splitting it
// would scatter one adapter and its Stripe-to-summary mappings over several files.

export interface StripePaymentProviderOptions {
  kind: 'local' | 'stripe';
  secretKey: string;
  publishableKey: string;
  webhookSecret: string | null;
  /**
   * Where the API is: absent for Stripe; for the built-in provider, the service's own URL (read
   * at each call, as the port is known only once listening) and the prefix it serves under.
   */
  endpoint?: { url: () => string; prefix: string };
  /** The SDK's own retries of network failures and 409/5xx answers (its default: 2). */
  maxNetworkRetries?: number;
}

type StripeClient = InstanceType<typeof Stripe>;

/** Stripe's client secrets begin with their intent's id: `pi_123_secret_abc`. */
const intentIdOf = (clientSecret: string) => clientSecret.slice(0, clientSecret.indexOf('_secret_'));

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

function cardOf(pm: Stripe.PaymentMethod): CardSummary {
  return {
    id: pm.id,
    brand: pm.card?.brand ?? 'unknown',
    last4: pm.card?.last4 ?? '',
    expMonth: pm.card?.exp_month ?? 0,
    expYear: pm.card?.exp_year ?? 0,
  };
}

function customerOf(customer: Stripe.Customer): CustomerSummary {
  return {
    id: customer.id,
    email: customer.email,
    name: customer.name ?? null,
    defaultPaymentMethodId: idOf(customer.invoice_settings?.default_payment_method),
  };
}

function subscriptionOf(subscription: Stripe.Subscription): SubscriptionSummary {
  const item = subscription.items.data[0];
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    priceId: item?.price.id ?? '',
    currentPeriodStart: item?.current_period_start ?? 0,
    currentPeriodEnd: item?.current_period_end ?? 0,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    paused: subscription.pause_collection !== null,
    latestInvoiceId: idOf(subscription.latest_invoice),
  };
}

/** A refusal by the card or bank, in the provider's words; anything else is not a decline and is thrown. */
function declineOf(error: unknown): (Decline & { intent: Stripe.PaymentIntent | null }) | null {
  const errors = stripeErrors();
  if (!errors || !(error instanceof errors.StripeCardError)) return null;
  const raw = error.raw as { payment_intent?: Stripe.PaymentIntent };
  return {
    status: 'declined',
    code: error.code ?? 'card_declined',
    declineCode: error.decline_code ?? null,
    message: error.message,
    intent: raw.payment_intent ?? null,
  };
}

function refundOf(refund: Stripe.Refund): RefundSummary {
  return {
    id: refund.id,
    paymentIntentId: idOf(refund.payment_intent) ?? '',
    amount: refund.amount,
    status: refund.status ?? 'succeeded',
    metadata: refund.metadata ?? {},
  };
}

function chargeResultOf(intent: Stripe.PaymentIntent): ChargeResult {
  if (intent.status === 'succeeded') {
    return {
      status: 'succeeded',
      paymentIntentId: intent.id,
      amount: intent.amount_received,
      currency: intent.currency,
      metadata: intent.metadata ?? {},
    };
  }
  if (intent.status === 'requires_action' && intent.client_secret) {
    return { status: 'requires_action', paymentIntentId: intent.id, clientSecret: intent.client_secret };
  }
  const error = intent.last_payment_error;
  return {
    status: 'declined',
    paymentIntentId: intent.id,
    code: error?.code ?? 'payment_intent_unexpected_state',
    declineCode: error?.decline_code ?? null,
    message: error?.message ?? `The payment is ${intent.status.replaceAll('_', ' ')}.`,
  };
}

/**
 * The payment provider on the official `stripe` SDK. With Stripe's keys it talks to Stripe; in
 * local mode the same code talks to the built-in provider on the service's port, the SDK's
 * requests sent to `<service>/_stripe/v1/...` by its fetch client.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind: 'local' | 'stripe';
  readonly publishableKey: string;
  #client: { url: string; stripe: StripeClient } | null = null;

  constructor(private readonly options: StripePaymentProviderOptions) {
    this.kind = options.kind;
    this.publishableKey = options.publishableKey;
  }

  /**
   * The SDK client, the SDK loaded on the first call (`stripe-sdk.ts`); for the built-in provider,
   * rebuilt if the service's URL changed.
   */
  async stripe(): Promise<StripeClient> {
    const Stripe = await loadStripe();
    const endpoint = this.options.endpoint;
    const url = endpoint ? endpoint.url() : 'https://api.stripe.com';
    if (this.#client?.url === url) return this.#client.stripe;
    const config: Stripe.StripeConfig = {
      maxNetworkRetries: this.options.maxNetworkRetries ?? 2,
      appInfo: { name: 'Scrub' },
    };
    if (endpoint) {
      const base = new URL(url);
      const prefix = endpoint.prefix;
      Object.assign(config, {
        host: base.hostname,
        port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
        protocol: base.protocol.replace(':', '') as 'http' | 'https',
        telemetry: false,
        httpClient: Stripe.createFetchHttpClient((input: string | URL | Request, init?: RequestInit) => {
          const target = new URL(String(input));
          target.pathname = `${prefix}${target.pathname}`;
          return fetch(target, init);
        }),
      });
    }
    const stripe = new Stripe(this.options.secretKey, config);
    this.#client = { url, stripe };
    return stripe;
  }

  async findCustomer(email: string): Promise<CustomerSummary | null> {
    const stripe = await this.stripe();
    // List, not search: Stripe's search index lags writes by up to a minute.
    const found = await stripe.customers.list({ email, limit: 1 });
    const customer = found.data[0];
    return customer ? customerOf(customer) : null;
  }

  async ensureCustomer(input: {
    email: string;
    name?: string;
    metadata?: Record<string, string>;
  }): Promise<CustomerSummary> {
    const stripe = await this.stripe();
    const existing = await this.findCustomer(input.email);
    if (existing) return existing;
    // Concurrent first calls for one e-mail send one key: Stripe answers them all with one customer.
    const key = `scrub-customer-${createHash('sha256').update(input.email.toLowerCase()).digest('hex').slice(0, 32)}`;
    const created = await stripe.customers.create(
      { email: input.email, ...(input.name ? { name: input.name } : {}), metadata: input.metadata ?? {} },
      { idempotencyKey: key },
    );
    return customerOf(created);
  }

  async listPaymentMethods(customerId: string) {
    const stripe = await this.stripe();
    const [customer, methods] = await Promise.all([
      stripe.customers.retrieve(customerId),
      stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 }),
    ]);
    const defaultId = customer.deleted ? null : idOf(customer.invoice_settings?.default_payment_method);
    return { cards: methods.data.map(cardOf), defaultId };
  }

  async setDefault(customerId: string, paymentMethodId: string): Promise<CardSummary> {
    const stripe = await this.stripe();
    let pm = await stripe.paymentMethods.retrieve(paymentMethodId);
    if (idOf(pm.customer) !== customerId)
      pm = await stripe.paymentMethods.attach(pm.id, { customer: customerId });
    await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
    return cardOf(pm);
  }

  async removeCard(customerId: string, paymentMethodId: string): Promise<void> {
    const stripe = await this.stripe();
    const pm = await stripe.paymentMethods.retrieve(paymentMethodId);
    if (idOf(pm.customer) !== customerId) throw new Error(`${paymentMethodId} is not ${customerId}'s card`);
    await stripe.paymentMethods.detach(paymentMethodId);
  }

  async setupCard(input: {
    customerId: string;
    paymentMethodId: string;
    billingDetails?: Stripe.PaymentMethodUpdateParams.BillingDetails;
    idempotencyKey: string;
    setupIntentId?: string;
  }): Promise<SetupResult> {
    const stripe = await this.stripe();
    try {
      const intent = input.setupIntentId
        ? await stripe.setupIntents.retrieve(input.setupIntentId)
        : await stripe.setupIntents.create(
            {
              customer: input.customerId,
              payment_method: input.paymentMethodId,
              automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
              usage: 'off_session',
              confirm: true,
            },
            { idempotencyKey: input.idempotencyKey },
          );
      const pmId = idOf(intent.payment_method)!;
      // Test ids (`pm_card_visa`) become new payment methods: only a finished intent is compared.
      const foreign =
        input.setupIntentId && (idOf(intent.customer) !== input.customerId || pmId !== input.paymentMethodId);
      if (foreign) {
        return {
          status: 'declined',
          code: 'resource_missing',
          declineCode: null,
          message: 'This setup intent is not for this card: save the card again.',
        };
      }
      if (intent.status === 'requires_action' && intent.client_secret) {
        return { status: 'requires_action', setupIntentId: intent.id, clientSecret: intent.client_secret };
      }
      if (intent.status !== 'succeeded') {
        const error = intent.last_setup_error;
        return {
          status: 'declined',
          code: error?.code ?? 'setup_intent_unexpected_state',
          declineCode: error?.decline_code ?? null,
          message: error?.message ?? `The card could not be saved (${intent.status}).`,
        };
      }
      if (input.billingDetails)
        await stripe.paymentMethods.update(pmId, { billing_details: input.billingDetails });
      return { status: 'succeeded', card: await this.setDefault(input.customerId, pmId) };
    } catch (error) {
      const decline = declineOf(error);
      if (!decline) throw error;
      const { intent: _intent, ...refusal } = decline;
      return refusal;
    }
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const stripe = await this.stripe();
    const paymentMethod =
      input.paymentMethodId ??
      (await stripe.customers
        .retrieve(input.customerId)
        .then((c) => (c.deleted ? null : idOf(c.invoice_settings?.default_payment_method))));
    if (!paymentMethod) {
      return {
        status: 'declined',
        paymentIntentId: null,
        code: 'payment_method_missing',
        declineCode: null,
        message: 'No card is saved for this account: add a card first.',
      };
    }
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer: input.customerId,
          payment_method: paymentMethod,
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: input.description,
          metadata: input.metadata ?? {},
          confirm: true,
          ...(input.offSession ? { off_session: true } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return chargeResultOf(intent);
    } catch (error) {
      return this.refusal(error);
    }
  }

  /** An off-session charge refused for want of 3-D Secure can still be completed with the customer present. */
  private refusal(error: unknown): ChargeResult {
    const decline = declineOf(error);
    if (!decline) throw error;
    const { intent, ...refusal } = decline;
    if (decline.code === 'authentication_required' && intent?.client_secret) {
      return { status: 'requires_action', paymentIntentId: intent.id, clientSecret: intent.client_secret };
    }
    return { ...refusal, paymentIntentId: intent?.id ?? null };
  }

  async getCharge(paymentIntentId: string): Promise<ChargeResult> {
    const stripe = await this.stripe();
    return chargeResultOf(await stripe.paymentIntents.retrieve(paymentIntentId));
  }

  async refund(input: {
    paymentIntentId: string;
    amount?: number;
    idempotencyKey: string;
    metadata?: Record<string, string>;
  }): Promise<RefundSummary> {
    const stripe = await this.stripe();
    const refund = await stripe.refunds.create(
      {
        payment_intent: input.paymentIntentId,
        ...(input.amount !== undefined ? { amount: input.amount } : {}),
        reason: 'requested_by_customer',
        metadata: input.metadata ?? {},
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return refundOf(refund);
  }

  async listRefunds(paymentIntentId: string): Promise<RefundSummary[]> {
    const stripe = await this.stripe();
    const refunds: RefundSummary[] = [];
    for await (const refund of stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
      refunds.push(refundOf(refund));
    }
    return refunds.reverse();
  }

  async paymentOfInvoice(invoiceId: string): Promise<string | null> {
    const stripe = await this.stripe();
    const { data } = await stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid', limit: 10 });
    return data.map((row) => idOf(row.payment.payment_intent)).find((id) => id !== null) ?? null;
  }

  async invoiceOfPayment(paymentIntentId: string): Promise<string | null> {
    const stripe = await this.stripe();
    const { data } = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: paymentIntentId },
      limit: 1,
    });
    return idOf(data[0]?.invoice);
  }

  async ensurePrice(input: {
    lookupKey: string;
    productName: string;
    amount: number;
    currency: string;
    interval: 'month' | 'year';
  }): Promise<string> {
    const stripe = await this.stripe();
    const found = await stripe.prices.list({ lookup_keys: [input.lookupKey], active: true, limit: 1 });
    const price = found.data[0];
    if (
      price &&
      price.unit_amount === input.amount &&
      price.currency === input.currency &&
      price.recurring?.interval === input.interval
    ) {
      return price.id;
    }
    // A changed amount makes a new price that takes the lookup key over (prices are immutable on Stripe).
    const created = await stripe.prices.create(
      {
        currency: input.currency,
        unit_amount: input.amount,
        recurring: { interval: input.interval },
        product_data: { name: input.productName },
        lookup_key: input.lookupKey,
        transfer_lookup_key: true,
      },
      {
        idempotencyKey: `scrub-price-${input.lookupKey}-${input.amount}-${input.currency}-${input.interval}`,
      },
    );
    return created.id;
  }

  /**
   * Creates the subscription with its first invoice left open (`default_incomplete`), then pays
   * that invoice's payment intent off-session with the default card, as `charge` pays: one path
   * for both setups, and a decline leaves no subscription behind.
   */
  async subscribe(input: {
    customerId: string;
    priceId: string;
    idempotencyKey: string;
    metadata?: Record<string, string>;
  }): Promise<SubscribeResult> {
    const stripe = await this.stripe();
    const customer = await stripe.customers.retrieve(input.customerId);
    const paymentMethod = customer.deleted ? null : idOf(customer.invoice_settings?.default_payment_method);
    if (!paymentMethod) {
      return {
        status: 'declined',
        code: 'payment_method_missing',
        declineCode: null,
        message: 'No card is saved for this account: add a card first.',
      };
    }
    const created = await stripe.subscriptions.create(
      {
        customer: input.customerId,
        items: [{ price: input.priceId }],
        default_payment_method: paymentMethod,
        payment_behavior: 'default_incomplete',
        payment_settings: { payment_method_types: ['card'], save_default_payment_method: 'on_subscription' },
        metadata: input.metadata ?? {},
        expand: ['latest_invoice.confirmation_secret'],
      },
      { idempotencyKey: `${input.idempotencyKey}:create` },
    );
    const invoice = created.latest_invoice as Stripe.Invoice | null;
    const secret = invoice?.confirmation_secret?.client_secret;
    if (created.status === 'active' || !secret)
      return { status: 'active', subscription: subscriptionOf(created) };
    let result: ChargeResult;
    try {
      const intent = await stripe.paymentIntents.confirm(
        intentIdOf(secret),
        { payment_method: paymentMethod, off_session: true },
        { idempotencyKey: `${input.idempotencyKey}:pay` },
      );
      result = chargeResultOf(intent);
    } catch (error) {
      result = this.refusal(error);
    }
    if (result.status === 'requires_action') {
      // Refused off-session for want of 3-D Secure: confirmed again with the customer present, so
      // the intent waits on the bank's check (`requires_action`) that a browser page then runs.
      const intent = await stripe.paymentIntents.confirm(
        result.paymentIntentId,
        { payment_method: paymentMethod },
        { idempotencyKey: `${input.idempotencyKey}:pay-on-session` },
      );
      result = chargeResultOf(intent);
    }
    if (result.status === 'declined') {
      await stripe.subscriptions.cancel(created.id, {}, { idempotencyKey: `${input.idempotencyKey}:cancel` });
      const { paymentIntentId: _id, ...decline } = result;
      return decline;
    }
    const subscription = subscriptionOf(await stripe.subscriptions.retrieve(created.id));
    if (result.status === 'requires_action') {
      return {
        status: 'requires_action',
        subscription,
        paymentIntentId: result.paymentIntentId,
        clientSecret: result.clientSecret,
      };
    }
    // Stripe marks the subscription active a moment after its invoice is paid.
    return { status: 'active', subscription: { ...subscription, status: 'active' } };
  }

  async switchPrice(
    subscriptionId: string,
    priceId: string,
    idempotencyKey: string,
  ): Promise<SubscriptionSummary> {
    const stripe = await this.stripe();
    const current = await stripe.subscriptions.retrieve(subscriptionId);
    const item = current.items.data[0];
    const updated = await stripe.subscriptions.update(
      subscriptionId,
      { items: [{ ...(item ? { id: item.id } : {}), price: priceId }], proration_behavior: 'none' },
      { idempotencyKey },
    );
    return subscriptionOf(updated);
  }

  async pause(subscriptionId: string, idempotencyKey: string): Promise<SubscriptionSummary> {
    const stripe = await this.stripe();
    const updated = await stripe.subscriptions.update(
      subscriptionId,
      { pause_collection: { behavior: 'void' } },
      { idempotencyKey },
    );
    return subscriptionOf(updated);
  }

  async resume(subscriptionId: string, idempotencyKey: string): Promise<SubscriptionSummary> {
    const stripe = await this.stripe();
    const updated = await stripe.subscriptions.update(
      subscriptionId,
      { pause_collection: '' },
      { idempotencyKey },
    );
    return subscriptionOf(updated);
  }

  async cancelAtPeriodEnd(
    subscriptionId: string,
    idempotencyKey: string,
    undo = false,
  ): Promise<SubscriptionSummary> {
    const stripe = await this.stripe();
    const updated = await stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: !undo },
      { idempotencyKey },
    );
    return subscriptionOf(updated);
  }

  async getSubscription(subscriptionId: string): Promise<SubscriptionSummary | null> {
    const stripe = await this.stripe();
    try {
      return subscriptionOf(await stripe.subscriptions.retrieve(subscriptionId));
    } catch (error) {
      const errors = stripeErrors();
      if (errors && error instanceof errors.StripeInvalidRequestError && error.statusCode === 404)
        return null;
      throw error;
    }
  }

  async verifyWebhook(payload: string | Buffer, signatureHeader: string): Promise<WebhookEvent> {
    if (!this.options.webhookSecret) {
      throw new WebhookSignatureError('No webhook signing secret is configured (STRIPE_WEBHOOK_SECRET).');
    }
    const stripe = await this.stripe();
    try {
      return stripe.webhooks.constructEvent(
        payload,
        signatureHeader,
        this.options.webhookSecret,
      ) as unknown as WebhookEvent;
    } catch (error) {
      const errors = stripeErrors();
      if (errors && error instanceof errors.StripeSignatureVerificationError)
        throw new WebhookSignatureError(error.message);
      throw error;
    }
  }
}
