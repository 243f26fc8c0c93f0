/** The provider the service runs on, as chosen at start (`wiring/payments.ts`). */
export interface PaymentsSetup {
  provider: PaymentProvider;
  /** The Stripe.js URL for the dashboard: the stand-in in local mode, Stripe's own otherwise. */
  stripeJsUrl: () => string;
  close(): Promise<void>;
}

/**
 * What the service's payment routes need from a card processor. One implementation
 * (`StripePaymentProvider`, on the official `stripe` SDK) serves both setups: real Stripe, or the
 * built-in provider that speaks Stripe's API locally. Amounts are in cents.
 */
export interface PaymentProvider {
  /** `local`: the built-in provider (no Stripe account, test cards only); `stripe`: Stripe itself. */
  readonly kind: 'local' | 'stripe';
  /** For the browser's `Stripe(publishableKey)` (served by `GET /config`). */
  readonly publishableKey: string;

  /** The customer with this e-mail, created on first use; the same one for concurrent first calls. */
  ensureCustomer(input: {
    email: string;
    name?: string;
    metadata?: Record<string, string>;
  }): Promise<CustomerSummary>;
  /** The customer with this e-mail, or null: never creates one (`GET /customer/exists`). */
  findCustomer(email: string): Promise<CustomerSummary | null>;
  /** The customer's saved cards, newest first, and which one is the default. */
  listPaymentMethods(customerId: string): Promise<{ cards: CardSummary[]; defaultId: string | null }>;
  /** Makes a saved (or new, then attached) card the one charged by default. */
  setDefault(customerId: string, paymentMethodId: string): Promise<CardSummary>;
  /** Removes (detaches) one of the customer's saved cards. */
  removeCard(customerId: string, paymentMethodId: string): Promise<void>;
  /**
   * Saves a card (a payment method made by Stripe.js) for later off-session charges through a
   * setup intent, and makes it the default. Declined cards are not saved; 3-D Secure cards
   * answer `requires_action` with the client secret for `stripe.confirmCardSetup`. With
   * `setupIntentId` (after the customer's 3-D Secure step) it finishes that setup intent instead
   * of starting another, which would ask the bank again.
   */
  setupCard(input: {
    customerId: string;
    paymentMethodId: string;
    billingDetails?: BillingDetails;
    idempotencyKey: string;
    setupIntentId?: string;
  }): Promise<SetupResult>;
  /**
   * Charges a card (the default one unless named). The same idempotency key answers the first
   * result and charges once. A card needing 3-D Secure answers `requires_action`: the customer
   * completes it in the browser (`stripe.confirmCardPayment(clientSecret)`), then `getCharge` tells.
   */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /** Where a charge stands now (after the customer's 3-D Secure step). */
  getCharge(paymentIntentId: string): Promise<ChargeResult>;
  /**
   * Gives back all or part (`amount`, cents; default: what is left) of a paid charge. The same
   * idempotency key refunds once. More than is left unrefunded is refused (an invalid request).
   */
  refund(input: {
    paymentIntentId: string;
    amount?: number;
    idempotencyKey: string;
    metadata?: Record<string, string>;
  }): Promise<RefundSummary>;
  /** Every refund of a payment, oldest first (made here or in Stripe's dashboard). */
  listRefunds(paymentIntentId: string): Promise<RefundSummary[]>;
  /** The payment intent that paid a (subscription) invoice, to refund it; null while unpaid. */
  paymentOfInvoice(invoiceId: string): Promise<string | null>;
  /** The invoice a payment intent paid, if it paid one (a refund of it names only the payment). */
  invoiceOfPayment(paymentIntentId: string): Promise<string | null>;

  /** The recurring price with this lookup key, created if missing (plans map to prices this way). */
  ensurePrice(input: {
    lookupKey: string;
    productName: string;
    amount: number;
    currency: string;
    interval: 'month' | 'year';
  }): Promise<string>;
  /**
   * Starts a subscription on the customer's default card and pays its first period now. Declined:
   * nothing is left behind. 3-D Secure: `requires_action`; the subscription turns active when the
   * customer completes it (the provider's `invoice.paid` event says so).
   */
  subscribe(input: {
    customerId: string;
    priceId: string;
    idempotencyKey: string;
    metadata?: Record<string, string>;
  }): Promise<SubscribeResult>;
  /** Bills the new price from the next period on (no proration). */
  switchPrice(subscriptionId: string, priceId: string, idempotencyKey: string): Promise<SubscriptionSummary>;
  /** Stops billing (renewal invoices are voided) until resumed; the subscription stays. */
  pause(subscriptionId: string, idempotencyKey: string): Promise<SubscriptionSummary>;
  resume(subscriptionId: string, idempotencyKey: string): Promise<SubscriptionSummary>;
  /** Ends the subscription when the paid period ends (`undo: true` keeps it going after all). */
  cancelAtPeriodEnd(
    subscriptionId: string,
    idempotencyKey: string,
    undo?: boolean,
  ): Promise<SubscriptionSummary>;
  getSubscription(subscriptionId: string): Promise<SubscriptionSummary | null>;

  /**
   * The event of a webhook delivery, if its `Stripe-Signature` header is valid for this body and
   * recent (5 minutes), else throws `WebhookSignatureError`. A valid event may still be a
   * redelivery: consumers key their effects by `event.id` (and the object's id).
   */
  verifyWebhook(payload: string | Buffer, signatureHeader: string): Promise<WebhookEvent>;
}

export interface BillingDetails {
  name?: string;
  email?: string;
  address?: {
    line1?: string;
    line2?: string;
    city?: string;
    state?: string;
    postal_code?: string;
    country?: string;
  };
}

export interface CustomerSummary {
  id: string;
  email: string | null;
  name: string | null;
  defaultPaymentMethodId: string | null;
}

export interface CardSummary {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeInput {
  customerId: string;
  /** Defaults to the customer's default card. */
  paymentMethodId?: string;
  amount: number;
  currency: string;
  description: string;
  idempotencyKey: string;
  /** True when the customer is not present (renewals, CLI purchases); 3-D Secure cards then need them back. */
  offSession: boolean;
  metadata?: Record<string, string>;
}

export interface Decline {
  status: 'declined';
  /** Stripe's error code: `card_declined`, `expired_card`, `authentication_required`... */
  code: string;
  /** Stripe's decline code (`insufficient_funds`, `generic_decline`), when the bank gave one. */
  declineCode: string | null;
  /** The provider's message, fit to show the customer ("Your card was declined."). */
  message: string;
}

export type ChargeResult =
  | {
      status: 'succeeded';
      paymentIntentId: string;
      amount: number;
      currency: string;
      /** What the charge was created with (the plan it pays for). */
      metadata: Record<string, string>;
    }
  | { status: 'requires_action'; paymentIntentId: string; clientSecret: string }
  | (Decline & { paymentIntentId: string | null });

export interface RefundSummary {
  id: string;
  paymentIntentId: string;
  amount: number;
  /** Stripe's statuses: `succeeded`, `pending`, `failed`, `canceled`... */
  status: string;
  metadata: Record<string, string>;
}

export type SetupResult =
  | { status: 'succeeded'; card: CardSummary }
  | { status: 'requires_action'; setupIntentId: string; clientSecret: string }
  | Decline;

export interface SubscriptionSummary {
  id: string;
  customerId: string;
  /** Stripe's statuses: `active`, `incomplete`, `past_due`, `canceled`... */
  status: string;
  priceId: string;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  paused: boolean;
  latestInvoiceId: string | null;
}

export type SubscribeResult =
  | { status: 'active'; subscription: SubscriptionSummary }
  | {
      status: 'requires_action';
      subscription: SubscriptionSummary;
      paymentIntentId: string;
      clientSecret: string;
    }
  | Decline;

/** The parts of a Stripe event that consumers read. */
export interface WebhookEvent {
  id: string;
  type: string;
  created: number;
  data: { object: { id: string; object: string; [key: string]: unknown }; previous_attributes?: object };
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}
