import { z } from 'zod';
import { defineRoutes } from './route-spec.js';

/** prepaid: buy credits once; postpaid: a monthly subscription; intro: the $1 card verification. */
export const PLAN_TYPES = ['prepaid', 'postpaid', 'intro'] as const;
export const PlanTypeSchema = z.enum(PLAN_TYPES);
export type PlanType = z.infer<typeof PlanTypeSchema>;

/** Plan references are long digit strings (79541679412214); kept as strings so no client rounds them. */
export const PlanReferenceSchema = z
  .string()
  .max(20)
  .regex(/^\d{6,20}$/, 'a plan reference is 6 to 20 digits');

/** One price a customer can pick for a plan. `credits` is null for an unlimited plan. */
export const AmountOptionSchema = z.object({
  amount: z.number().positive().describe('US dollars'),
  credits: z.number().int().nonnegative().nullable(),
  percent_off: z.number().min(0).max(100),
  unlimited_days: z.number().int().positive().nullable(),
});
export type AmountOption = z.infer<typeof AmountOptionSchema>;

export const PlanSchema = z
  .object({
    plan_reference: PlanReferenceSchema,
    plan_name: z.string(),
    plan_subtitle: z.string(),
    plan_type: PlanTypeSchema,
    /** The plan's price (the lowest choice for a variable plan), in US dollars. */
    plan_amount: z.number().nonnegative(),
    percent_off: z.number().min(0).max(100),
    /** Credits for the price above; null when the plan is unlimited. */
    plan_credits: z.number().int().nonnegative().nullable(),
    plan_credits_text: z.string(),
    bonus_credits: z.number().int().nonnegative(),
    currency: z.literal('usd'),
    interval: z.enum(['month']).nullable(),
    unlimited: z.boolean(),
    /** A variable plan lets the customer pick one of several amounts. */
    variable: z.boolean(),
    amount_options: z.array(AmountOptionSchema).min(1),
  })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof PlanSchema>;

export const PlanListSchema = z.object({ plans: z.array(PlanSchema) }).meta({ id: 'PlanList' });
export type PlanList = z.infer<typeof PlanListSchema>;

/** The plans whose holders are never charged credits (seed document 2, section 6). */
export const UNLIMITED_PLAN_REFERENCES = ['79541679412214', '79541679412215'] as const;

export const plansRoutes = defineRoutes('plans', {
  listPlans: {
    method: 'GET',
    path: '/plans',
    auth: 'none',
    summary: 'The plan catalogue',
    response: PlanListSchema,
  },
});
