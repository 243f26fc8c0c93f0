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
});
