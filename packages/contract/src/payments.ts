import { z } from 'zod';
import { MessageSchema } from './account.js';
import { PlanReferenceSchema } from './plans.js';
import { defineRoutes } from './route-spec.js';

export const CurrencySchema = z.literal('usd');

/** `POST /payment`: buy a plan; `amount` (dollars) only for variable plans. */
export const PurchaseRequestSchema = z
  .object({
    reference_code: PlanReferenceSchema,
    amount: z.number().positive().optional(),
    currency: CurrencySchema.default('usd'),
  })
  .strict();
export type PurchaseRequest = z.infer<typeof PurchaseRequestSchema>;

export const PurchaseResultSchema = z.object({
  message: z.string(),
  purchase_id: z.string(),
  plan_reference: PlanReferenceSchema,
  amount: z.number(),
  credits_added: z.number().int().nonnegative(),
});
export type PurchaseResult = z.infer<typeof PurchaseResultSchema>;

/** `POST /payment/setup`: save the card (a payment method id from the card component) and the billing address. */
export const PaymentSetupRequestSchema = z
  .object({
    customer_name: z.string().trim().min(1, 'Name is required').max(200),
    email: z.email().optional(),
    line1: z.string().trim().min(1, 'Line1 is required').max(200),
    line2: z.string().max(200).optional().default(''),
    city: z.string().trim().min(1, 'City is required').max(100),
    state: z.string().trim().min(1, 'State is required').max(100),
    postal_code: z.string().max(20).optional().default(''),
    country: z.string().length(2).default('US'),
    payment_method_id: z.string().min(1).max(255),
    amount: z.number().positive().optional(),
    reference_code: PlanReferenceSchema.optional(),
    /**
     * After 3-D Secure: the setup intent the first attempt answered (its client secret, confirmed in
     * the browser), so the service finishes saving that card instead of asking the bank again.
     */
    setup_intent_id: z.string().startsWith('seti_').max(255).optional(),
  })
  .strict();
export type PaymentSetupRequest = z.infer<typeof PaymentSetupRequestSchema>;

export const ExistsSchema = z.object({ exists: z.boolean() });

export const PaymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string().length(4),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  is_default: z.boolean(),
});
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;
export const PaymentMethodListSchema = z.object({ payment_methods: z.array(PaymentMethodSchema) });

export const ChangePaymentMethodSchema = z.object({ payment_method_id: z.string().min(1).max(255) }).strict();

export const SubscriptionSchema = z.object({
  id: z.string(),
  plan_reference: PlanReferenceSchema,
  status: z.enum(['active', 'paused', 'past_due', 'canceled']),
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionStateSchema = z.object({ subscription: SubscriptionSchema.nullable() });
export const CreateSubscriptionSchema = z
  .object({
    price_id: z.string().min(1).max(255),
    success_url: z.url().optional(),
    cancel_url: z.url().optional(),
  })
  .strict();
export const ChangeSubscriptionSchema = z.object({ plan_reference: PlanReferenceSchema }).strict();
export const PatchSubscriptionSchema = z.object({ action: z.enum(['pause', 'resume']) }).strict();

/** Purchase history row (seed document 2, section 3). */
export const PurchaseSchema = z.object({
  /** The purchase's id: an admin refunds it by this id. */
  purchase_id: z.string(),
  plan_reference: PlanReferenceSchema,
  plan_name: z.string(),
  purchase_date: z.string(),
  purchase_amount: z.number(),
  credits_added: z.number().int().nonnegative(),
  /** Dollars refunded so far (0 when none). */
  refunded_amount: z.number().nonnegative(),
});
export const PurchaseHistoryQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional(),
  month: z.coerce.number().int().min(1).max(12).optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(5),
});
export type Purchase = z.infer<typeof PurchaseSchema>;
export type PurchaseHistoryQuery = z.input<typeof PurchaseHistoryQuerySchema>;
export const PurchaseHistorySchema = z.object({ purchases: z.array(PurchaseSchema) });

/** A single-use link for a browser without a session: add a card, or confirm a payment (3-D Secure). */
export const PaymentLinkSchema = z.object({ url: z.url(), expires_at: z.string() });
export type PaymentLink = z.infer<typeof PaymentLinkSchema>;

export const PaymentLinkParamsSchema = z.object({ grant: z.string().min(1).max(255) });

/** What a payment link opens; it shows nothing of the account. */
export const PaymentLinkViewSchema = z.object({
  purpose: z.enum(['add_card', 'authenticate']),
  expires_at: z.string(),
  /** `authenticate`: the payment intent's client secret, for `stripe.confirmCardPayment`. */
  client_secret: z.string().nullable(),
});
export type PaymentLinkView = z.infer<typeof PaymentLinkViewSchema>;

/** `POST /payment/confirm`: after 3-D Secure, the payment intent the purchase answered. */
export const ConfirmPurchaseRequestSchema = z
  .object({ payment_intent_id: z.string().startsWith('pi_').max(255) })
  .strict();
export const PurchaseConfirmationSchema = z.object({
  /** `requires_action`: the customer has not finished authenticating yet; ask again later. */
  status: z.enum(['succeeded', 'requires_action', 'failed']),
  message: z.string(),
  purchase: PurchaseResultSchema.nullable(),
});
export type PurchaseConfirmation = z.infer<typeof PurchaseConfirmationSchema>;

/** Cards, purchases and subscriptions of the caller's account (docs/payments.md). */
export const paymentsRoutes = defineRoutes('payments', {
  customerExists: {
    method: 'GET',
    path: '/customer/exists',
    auth: 'user',
    summary: 'Whether a payment customer exists',
    response: ExistsSchema,
  },
  listPaymentMethods: {
    method: 'GET',
    path: '/payment-methods',
    auth: 'user',
    summary: 'Saved cards',
    response: PaymentMethodListSchema,
  },
  paymentMethodExists: {
    method: 'GET',
    path: '/payment-methods/exists',
    auth: 'user',
    summary: 'Whether a saved card exists',
    response: ExistsSchema,
  },
  setupPayment: {
    method: 'POST',
    path: '/payment/setup',
    auth: 'user',
    summary: 'Save a card and billing address',
    body: PaymentSetupRequestSchema,
    response: MessageSchema,
  },
  purchase: {
    method: 'POST',
    path: '/payment',
    auth: 'user',
    summary: 'Buy a plan',
    body: PurchaseRequestSchema,
    response: PurchaseResultSchema,
  },
  changePaymentMethod: {
    method: 'PUT',
    path: '/payment-method',
    auth: 'user',
    summary: 'Change the default card',
    body: ChangePaymentMethodSchema,
    response: MessageSchema,
  },
  getSubscription: {
    method: 'GET',
    path: '/subscription',
    auth: 'user',
    summary: 'Current subscription',
    response: SubscriptionStateSchema,
  },
  createSubscription: {
    method: 'POST',
    path: '/subscription',
    auth: 'user',
    summary: 'Subscribe to a postpaid plan',
    body: CreateSubscriptionSchema,
    response: SubscriptionStateSchema,
  },
  changeSubscription: {
    method: 'PUT',
    path: '/subscription',
    auth: 'user',
    summary: 'Switch to another postpaid plan',
    body: ChangeSubscriptionSchema,
    response: SubscriptionStateSchema,
  },
  patchSubscription: {
    method: 'PATCH',
    path: '/subscription',
    auth: 'user',
    summary: 'Pause or resume the subscription',
    body: PatchSubscriptionSchema,
    response: SubscriptionStateSchema,
  },
  cancelSubscription: {
    method: 'DELETE',
    path: '/subscription',
    auth: 'user',
    summary: 'Cancel at the end of the period',
    response: SubscriptionStateSchema,
  },
  confirmPurchase: {
    method: 'POST',
    path: '/payment/confirm',
    auth: 'user',
    summary: 'Where a purchase stands after 3-D Secure; records it once paid',
    body: ConfirmPurchaseRequestSchema,
    response: PurchaseConfirmationSchema,
  },
  createCardLink: {
    method: 'POST',
    path: '/payment/card-link',
    auth: 'user',
    summary: 'A single-use link (15 minutes) to add a card in a browser without signing in',
    response: PaymentLinkSchema,
  },
  getPaymentLink: {
    method: 'GET',
    path: '/payment/links/{grant}',
    auth: 'none',
    summary: 'What a payment link is for (the link is the credential)',
    params: PaymentLinkParamsSchema,
    response: PaymentLinkViewSchema,
  },
  setupPaymentWithLink: {
    method: 'POST',
    path: '/payment/links/{grant}/setup',
    auth: 'none',
    summary: "Save a card on the link's account; the link then stops working",
    params: PaymentLinkParamsSchema,
    body: PaymentSetupRequestSchema,
    response: MessageSchema,
  },
  listPurchases: {
    method: 'GET',
    path: '/purchases',
    auth: 'user',
    summary: 'Purchase history',
    query: PurchaseHistoryQuerySchema,
    response: PurchaseHistorySchema,
  },
});
