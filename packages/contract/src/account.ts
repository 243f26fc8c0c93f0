import { z } from 'zod';
import { AccountListsSchema, UpdateAccountListsSchema } from './operator-lists.js';
import { PlanReferenceSchema } from './plans.js';
import { defineRoutes } from './route-spec.js';

export const ROLE_NAMES = ['User', 'Agency', 'Admin', 'Super Admin'] as const;
export const RoleNameSchema = z.enum(ROLE_NAMES);
export type RoleName = z.infer<typeof RoleNameSchema>;

export const PLAN_STATUSES = ['active', 'paused'] as const;
export const PlanStatusSchema = z.enum(PLAN_STATUSES);
export type PlanStatus = z.infer<typeof PlanStatusSchema>;

export const SubscriptionStatusSchema = z.enum(['none', 'active', 'paused', 'past_due', 'canceled']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatusSchema>;

export const UserPlanSchema = z.object({
  plan_reference: PlanReferenceSchema.nullable(),
  plan_status: PlanStatusSchema,
  plan_name: z.string(),
});
export type UserPlan = z.infer<typeof UserPlanSchema>;

export const AddressSchema = z.object({
  line1: z.string().max(200).default(''),
  line2: z.string().max(200).default(''),
  city: z.string().max(100).default(''),
  state: z.string().max(100).default(''),
  country: z.string().max(2).default('US'),
  postal_code: z.string().max(20).default(''),
});
export type Address = z.infer<typeof AddressSchema>;

/** The address fields a change may carry; no defaults, so an absent field keeps its stored value. */
export const AddressUpdateSchema = z
  .object({
    line1: z.string().max(200),
    line2: z.string().max(200),
    city: z.string().max(100),
    state: z.string().max(100),
    country: z.string().max(2),
    postal_code: z.string().max(20),
  })
  .partial();

/** Credits left: a count, or the string 'unlimited' for unlimited plans. */
export const CreditsRemainingSchema = z.union([z.number().int().nonnegative(), z.literal('unlimited')]);

/** `GET /credits`: the credit snapshot (seed document 2, section 3). */
export const CreditSnapshotSchema = z
  .object({
    credits: z.number().int().nonnegative(),
    credits_remaining: CreditsRemainingSchema,
    has_unlimited: z.boolean(),
    user_plan: UserPlanSchema,
    subscription_status: SubscriptionStatusSchema,
  })
  .meta({ id: 'CreditSnapshot' });
export type CreditSnapshot = z.infer<typeof CreditSnapshotSchema>;

/** `GET /user`: user info and session fields of both seed documents. */
export const UserInfoSchema = CreditSnapshotSchema.extend({
  userId: z.string(),
  email: z.email(),
  user_login_email: z.email(),
  user_name: z.string(),
  /** When the time-limited unlimited pass ends (ISO 8601); null for plans that do not end by themselves. */
  plan_ends_at: z.string().nullable(),
  displayName: z.string(),
  usertype: z.enum(['user', 'admin']),
  role: z.object({ name: RoleNameSchema }),
  total_credits_balance: z.number().int().nonnegative(),
  user_plan_status: PlanStatusSchema,
  plan: z.string(),
  purchase_settings: z.object({
    scrubs_amount: z.number().int().nonnegative(),
    is_scrub_enabled: z.boolean(),
  }),
  address: AddressSchema,
  billing_info: z.object({ customer_address: AddressSchema }),
  api_key_id: z.string().nullable(),
  api_key_last4: z.string().nullable(),
  api_key_created_at: z.string().nullable(),
  created_at: z.string(),
}).meta({ id: 'UserInfo' });
export type UserInfo = z.infer<typeof UserInfoSchema>;

/** `PUT /user`: the fields a user may change about themselves. */
export const UpdateUserSchema = z
  .object({
    user_name: z.string().trim().min(1).max(100),
    address: AddressUpdateSchema,
    purchase_settings: z.object({
      scrubs_amount: z.number().int().nonnegative(),
      is_scrub_enabled: z.boolean(),
    }),
  })
  .partial()
  .strict();
export type UpdateUser = z.infer<typeof UpdateUserSchema>;

/** `PUT /user/plan-status`: pause or resume the plan. */
export const PlanStatusUpdateSchema = z.object({ status: PlanStatusSchema }).strict();
export const MessageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;

export const accountRoutes = defineRoutes('account', {
  getUser: {
    method: 'GET',
    path: '/user',
    auth: 'user',
    summary: 'User info',
    response: UserInfoSchema,
  },
  updateUser: {
    method: 'PUT',
    path: '/user',
    auth: 'user',
    summary: 'Update profile and billing address',
    body: UpdateUserSchema,
    response: UserInfoSchema,
  },
  setPlanStatus: {
    method: 'PUT',
    path: '/user/plan-status',
    auth: 'user',
    summary: 'Pause or resume the plan',
    body: PlanStatusUpdateSchema,
    response: MessageSchema,
  },
  getCredits: {
    method: 'GET',
    path: '/credits',
    auth: 'user',
    apiKeyInQuery: true,
    summary: 'Credit snapshot',
    query: z.object({ k: z.string().max(200).optional() }),
    response: CreditSnapshotSchema,
  },
  getLists: {
    method: 'GET',
    path: '/user/lists',
    auth: 'user',
    summary: "Operator lists (litigators...): the account's default and every list there is",
    response: AccountListsSchema,
  },
  setLists: {
    method: 'PUT',
    path: '/user/lists',
    auth: 'user',
    summary: 'Set the operator lists checked by default on every check and bulk job',
    body: UpdateAccountListsSchema,
    response: AccountListsSchema,
  },
});
