import { z } from 'zod';
import { ProviderIdSchema } from './cards.js';
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

export const PurchaseResultSchema = z
  .object({
    message: z.string(),
    purchase_id: z.string(),
    plan_reference: PlanReferenceSchema,
    amount: z.number(),
    credits_added: z.number().int().nonnegative(),
  })
  .meta({ id: 'PurchaseResult' });
export type PurchaseResult = z.infer<typeof PurchaseResultSchema>;

/** Purchase history row (seed document 2, section 3). */
export const PurchaseSchema = z
  .object({
    /** The purchase's id: an admin refunds it by this id. */
    purchase_id: z.string(),
    plan_reference: PlanReferenceSchema,
    plan_name: z.string(),
    purchase_date: z.string(),
    purchase_amount: z.number(),
    credits_added: z.number().int().nonnegative(),
    /** Dollars refunded so far (0 when none). */
    refunded_amount: z.number().nonnegative(),
  })
  .meta({ id: 'Purchase' });
export const PurchaseHistoryQuerySchema = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional(),
  month: z.coerce.number().int().min(1).max(12).optional(),
  per_page: z.coerce.number().int().min(1).max(100).default(5),
});
export type Purchase = z.infer<typeof PurchaseSchema>;
export type PurchaseHistoryQuery = z.input<typeof PurchaseHistoryQuerySchema>;
export const PurchaseHistorySchema = z
  .object({ purchases: z.array(PurchaseSchema) })
  .meta({ id: 'PurchaseHistory' });

/** `POST /payment/confirm`: after 3-D Secure, the payment intent the purchase answered. */
export const ConfirmPurchaseRequestSchema = z
  .object({ payment_intent_id: ProviderIdSchema.startsWith('pi_') })
  .strict();
export const PurchaseConfirmationSchema = z
  .object({
    /** `requires_action`: the customer has not finished authenticating yet; ask again later. */
    status: z.enum(['succeeded', 'requires_action', 'failed']),
    message: z.string(),
    purchase: PurchaseResultSchema.nullable(),
  })
  .meta({ id: 'PurchaseConfirmation' });
export type PurchaseConfirmation = z.infer<typeof PurchaseConfirmationSchema>;

/** The largest threshold auto top-up and the low-balance e-mail take. */
export const MAX_BALANCE_THRESHOLD = 10_000_000;

const ThresholdSchema = z.number().int().min(1).max(MAX_BALANCE_THRESHOLD);

/**
 * Auto top-up and the low-balance e-mail (`GET /payment/auto-top-up`). When a charge takes the
 * balance below `threshold`, the default card is charged off-session for `plan_reference` (at
 * `amount` dollars for a variable pack), once per crossing. A declined card stops it
 * (`status: 'stopped'`, `stopped_reason`) until it is set again. Below `low_balance_threshold` the
 * customer is e-mailed, once per crossing.
 */
export const AutoTopUpSettingsSchema = z
  .object({
    enabled: z.boolean(),
    /** `off`, `active`, or `stopped` by a declined card (set it again to restart). */
    status: z.enum(['off', 'active', 'stopped']),
    threshold: z.number().int().nonnegative(),
    plan_reference: z.string().nullable(),
    plan_name: z.string().nullable(),
    /** Dollars paid each time; credits added each time (null for an unlimited pass). */
    amount: z.number().nullable(),
    credits: z.number().int().nullable(),
    stopped_reason: z.string().nullable(),
    stopped_at: z.string().nullable(),
    low_balance_threshold: z.number().int().nullable(),
    /** The latest attempt, if any. */
    last_attempt: z
      .object({
        status: z.enum(['pending', 'succeeded', 'declined', 'failed']),
        amount: z.number(),
        credits_added: z.number().int().nullable(),
        message: z.string().nullable(),
        created_at: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'AutoTopUpSettings' });
export type AutoTopUpSettings = z.infer<typeof AutoTopUpSettingsSchema>;

/** `PUT /payment/auto-top-up`: any of the settings; the others keep their value. */
export const UpdateAutoTopUpSchema = z
  .object({
    enabled: z.boolean(),
    threshold: ThresholdSchema,
    plan_reference: PlanReferenceSchema,
    /** Dollars, for a variable pack (one of its amounts). */
    amount: z.number().positive().max(1_000_000),
    /** Null turns the low-balance e-mail off. */
    low_balance_threshold: ThresholdSchema.nullable(),
  })
  .partial()
  .strict();
export type UpdateAutoTopUp = z.infer<typeof UpdateAutoTopUpSchema>;

/** One-off purchases of prepaid plans on the default card, and the purchase history (docs/payments.md). */
export const purchasesRoutes = defineRoutes('purchases', {
  purchase: {
    method: 'POST',
    path: '/payment',
    auth: 'user',
    errors: [
      'card_declined',
      'authentication_required',
      'payment_method_required',
      'plan_paused',
      'not_found',
      'conflict',
    ],
    summary: 'Buy a plan',
    body: PurchaseRequestSchema,
    response: PurchaseResultSchema,
  },
  confirmPurchase: {
    method: 'POST',
    path: '/payment/confirm',
    auth: 'user',
    errors: ['card_declined', 'authentication_required', 'plan_paused', 'not_found', 'conflict'],
    summary: 'Where a purchase stands after 3-D Secure; records it once paid',
    body: ConfirmPurchaseRequestSchema,
    response: PurchaseConfirmationSchema,
  },
  listPurchases: {
    method: 'GET',
    path: '/purchases',
    auth: 'user',
    summary: 'Purchase history',
    query: PurchaseHistoryQuerySchema,
    response: PurchaseHistorySchema,
  },
  getAutoTopUp: {
    method: 'GET',
    path: '/payment/auto-top-up',
    auth: 'user',
    summary: 'Auto top-up and low-balance e-mail settings',
    response: AutoTopUpSettingsSchema,
  },
  setAutoTopUp: {
    method: 'PUT',
    path: '/payment/auto-top-up',
    auth: 'user',
    errors: ['payment_method_required', 'not_found'],
    summary: 'Set auto top-up (threshold, pack) and the low-balance e-mail',
    body: UpdateAutoTopUpSchema,
    response: AutoTopUpSettingsSchema,
  },
});
