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
export const CreateSubscriptionSchema = z
  .object({
    price_id: z.string().min(1).max(255),
    success_url: z.url().optional(),
    cancel_url: z.url().optional(),
  })
  .strict();
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
