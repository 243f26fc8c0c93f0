import { z } from 'zod';
import { PlanReferenceSchema } from './plans.js';
import { defineRoutes } from './route-spec.js';

export const SubscriptionSchema = z.object({
  id: z.string(),
  plan_reference: PlanReferenceSchema,
  status: z.enum(['active', 'paused', 'past_due', 'canceled']),
  current_period_end: z.string(),
  cancel_at_period_end: z.boolean(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
export const SubscriptionStateSchema = z
  .object({ subscription: SubscriptionSchema.nullable() })
  .meta({ id: 'SubscriptionState' });
/**
 * The seed's checkout sends `success_url` and `cancel_url`. This service has no checkout page to
 * come back from: a subscription is charged at once on the default card, so both are refused with
 * a 400 that says so, never ignored.
 */
const NO_CHECKOUT_PAGE =
  'is not used: there is no checkout page to return from. The subscription is charged at once on the default card: send price_id alone (save a card first with POST /payment/setup, or scrub card add)';
export const CreateSubscriptionSchema = z
  .object({
    price_id: z.string().min(1).max(255),
    success_url: z.unknown().optional().describe(`Refused: ${NO_CHECKOUT_PAGE}`),
    cancel_url: z.unknown().optional().describe(`Refused: ${NO_CHECKOUT_PAGE}`),
  })
  .strict()
  .superRefine((body, context) => {
    for (const field of ['success_url', 'cancel_url'] as const) {
      if (body[field] !== undefined)
        context.addIssue({ code: 'custom', path: [field], message: NO_CHECKOUT_PAGE });
    }
  });
export const ChangeSubscriptionSchema = z.object({ plan_reference: PlanReferenceSchema }).strict();
export const PatchSubscriptionSchema = z.object({ action: z.enum(['pause', 'resume']) }).strict();

/** The monthly (postpaid) plan of the caller's account (docs/payments.md). */
export const subscriptionsRoutes = defineRoutes('subscriptions', {
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
    errors: [
      'card_declined',
      'authentication_required',
      'payment_method_required',
      'plan_paused',
      'not_found',
      'conflict',
    ],
    summary: 'Subscribe to a postpaid plan',
    body: CreateSubscriptionSchema,
    response: SubscriptionStateSchema,
  },
  changeSubscription: {
    method: 'PUT',
    path: '/subscription',
    auth: 'user',
    errors: [
      'card_declined',
      'authentication_required',
      'payment_method_required',
      'plan_paused',
      'not_found',
      'conflict',
    ],
    summary: 'Switch to another postpaid plan',
    body: ChangeSubscriptionSchema,
    response: SubscriptionStateSchema,
  },
  patchSubscription: {
    method: 'PATCH',
    path: '/subscription',
    auth: 'user',
    errors: [
      'card_declined',
      'authentication_required',
      'payment_method_required',
      'plan_paused',
      'not_found',
      'conflict',
    ],
    summary: 'Pause or resume the subscription',
    body: PatchSubscriptionSchema,
    response: SubscriptionStateSchema,
  },
  cancelSubscription: {
    method: 'DELETE',
    path: '/subscription',
    auth: 'user',
    errors: ['not_found', 'conflict'],
    summary: 'Cancel at the end of the period',
    response: SubscriptionStateSchema,
  },
});
