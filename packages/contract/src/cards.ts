import { z } from 'zod';
import { MessageSchema } from './account.js';
import { PlanReferenceSchema } from './plans.js';
import { defineRoutes, MAX_PATH_PARAM_LENGTH } from './route-spec.js';

/**
 * A payment provider's object id (`pm_...`, `seti_...`): letters, digits and underscores. It becomes
 * part of the provider's URL, so nothing else may pass (a `%` or a `..` there was a 500, or another URL).
 */
export const ProviderIdSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_]+$/, 'is an id from the card form (letters, digits and underscores, such as pm_1Abc)');

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
    payment_method_id: ProviderIdSchema,
    amount: z.number().positive().optional(),
    reference_code: PlanReferenceSchema.optional(),
    /**
     * After 3-D Secure: the setup intent the first attempt answered (its client secret, confirmed in
     * the browser), so the service finishes saving that card instead of asking the bank again.
     */
    setup_intent_id: ProviderIdSchema.startsWith('seti_').optional(),
  })
  .strict();
export type PaymentSetupRequest = z.infer<typeof PaymentSetupRequestSchema>;

export const ExistsSchema = z.object({ exists: z.boolean() }).meta({ id: 'Exists' });

export const PaymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string().length(4),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  is_default: z.boolean(),
});
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;
export const PaymentMethodListSchema = z
  .object({ payment_methods: z.array(PaymentMethodSchema) })
  .meta({ id: 'PaymentMethodList' });

export const ChangePaymentMethodSchema = z.object({ payment_method_id: ProviderIdSchema }).strict();

/** A saved card, by its payment method id (`GET /payment-methods`). */
export const PaymentMethodParamsSchema = z.object({
  payment_method_id: ProviderIdSchema.max(MAX_PATH_PARAM_LENGTH),
});

/** A single-use link for a browser without a session: add a card, or confirm a payment (3-D Secure). */
export const PaymentLinkSchema = z
  .object({ url: z.url(), expires_at: z.string() })
  .meta({ id: 'PaymentLink' });
export type PaymentLink = z.infer<typeof PaymentLinkSchema>;

export const PaymentLinkParamsSchema = z.object({ grant: z.string().min(1).max(MAX_PATH_PARAM_LENGTH) });

/** What a payment link opens; it shows nothing of the account. */
export const PaymentLinkViewSchema = z
  .object({
    purpose: z.enum(['add_card', 'authenticate']),
    expires_at: z.string(),
    /** `authenticate`: the payment intent's client secret, for `stripe.confirmCardPayment`. */
    client_secret: z.string().nullable(),
  })
  .meta({ id: 'PaymentLinkView' });
export type PaymentLinkView = z.infer<typeof PaymentLinkViewSchema>;

/**
 * The caller's payment customer and saved cards, and the single-use payment links that open a card
 * page (or a 3-D Secure step) in a browser without a session (docs/payments.md).
 */
export const cardsRoutes = defineRoutes('cards', {
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
    errors: ['card_declined', 'authentication_required', 'conflict'],
    summary: 'Save a card and billing address',
    body: PaymentSetupRequestSchema,
    response: MessageSchema,
  },
  changePaymentMethod: {
    method: 'PUT',
    path: '/payment-method',
    auth: 'user',
    errors: ['not_found', 'payment_method_required'],
    summary: 'Change the default card',
    body: ChangePaymentMethodSchema,
    response: MessageSchema,
  },
  removePaymentMethod: {
    method: 'DELETE',
    path: '/payment-methods/{payment_method_id}',
    auth: 'user',
    summary:
      'Remove a saved card; the newest other card becomes the default. The last card stays while a monthly plan is billed to it',
    params: PaymentMethodParamsSchema,
    response: MessageSchema,
    errors: ['not_found', 'conflict'],
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
    errors: ['payment_link_invalid', 'payment_link_expired'],
    summary: 'What a payment link is for (the link is the credential)',
    params: PaymentLinkParamsSchema,
    response: PaymentLinkViewSchema,
  },
  setupPaymentWithLink: {
    method: 'POST',
    path: '/payment/links/{grant}/setup',
    auth: 'none',
    errors: [
      'card_declined',
      'authentication_required',
      'payment_link_invalid',
      'payment_link_expired',
      'conflict',
    ],
    summary: "Save a card on the link's account; the link then stops working",
    params: PaymentLinkParamsSchema,
    body: PaymentSetupRequestSchema,
    response: MessageSchema,
  },
});
