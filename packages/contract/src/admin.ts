import { z } from 'zod';
import { MessageSchema, RoleNameSchema, UserInfoSchema } from './account.js';
import { PurchaseHistoryQuerySchema, PurchaseHistorySchema } from './payments.js';
import { PlanReferenceSchema } from './plans.js';
import { defineRoutes } from './route-spec.js';

/** Managed user row (both seed documents, section 3). */
export const ManagedUserSchema = z.object({
  user_id: z.string(),
  full_name: z.string(),
  email: z.email(),
  role_name: RoleNameSchema,
  avatar: z.string().nullable(),
  credits: z.number().int().nonnegative(),
  enabled: z.boolean(),
  created_at: z.string(),
});
export type ManagedUser = z.infer<typeof ManagedUserSchema>;

export const AdminUserListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().max(255).optional(),
});
export const AdminUserListSchema = z.object({
  users: z.array(ManagedUserSchema),
  page: z.number().int(),
  total_pages: z.number().int(),
  total_users_count: z.number().int(),
});

/** An account's type as the admin screens set it (`ut`). */
export const USER_TYPES = ['user', 'admin'] as const;
export const UserTypeSchema = z.enum(USER_TYPES);

/** Create account: the seed's payload keys (le e-mail, lp password, ut user type). */
export const AdminCreateUserSchema = z
  .object({ le: z.email(), lp: z.string().min(6), ut: UserTypeSchema.default('user') })
  .strict();
/** Update a user: e-mail and type must be non-empty; a blank password means unchanged. */
export const AdminUpdateUserSchema = z
  .object({ le: z.email().optional(), lp: z.string().optional(), ut: UserTypeSchema.optional() })
  .strict();
/** Adjust credits: a signed change, written to the ledger like any other entry. */
export const AdminAdjustCreditsSchema = z
  .object({
    plan_credits: z
      .number()
      .int()
      .refine((n) => n !== 0, 'the adjustment cannot be 0'),
    plan_reference: PlanReferenceSchema.optional(),
    note: z.string().max(500).optional(),
  })
  .strict();
export const ActAsUserSchema = z.object({ token: z.string(), expires_at: z.string() });

const UserIdParams = z.object({ user_id: z.string().min(1).max(64) });

/** Written down ahead of the admin work: none is served yet. */
export const adminRoutes = defineRoutes('admin', {
  adminListUsers: {
    method: 'GET',
    path: '/admin/users',
    auth: 'admin',
    planned: true,
    summary: 'All users',
    query: AdminUserListQuerySchema,
    response: AdminUserListSchema,
  },
  adminCreateUser: {
    method: 'POST',
    path: '/admin/users',
    auth: 'admin',
    planned: true,
    summary: 'Create an account',
    body: AdminCreateUserSchema,
    response: ManagedUserSchema,
    status: 201,
  },
  adminGetUser: {
    method: 'GET',
    path: '/admin/users/{user_id}',
    auth: 'admin',
    planned: true,
    summary: "A user's info",
    params: UserIdParams,
    response: UserInfoSchema,
  },
  adminUpdateUser: {
    method: 'PUT',
    path: '/admin/users/{user_id}',
    auth: 'admin',
    planned: true,
    summary: "Change a user's e-mail, password or type",
    params: UserIdParams,
    body: AdminUpdateUserSchema,
    response: MessageSchema,
  },
  adminDeleteUser: {
    method: 'DELETE',
    path: '/admin/users/{user_id}',
    auth: 'admin',
    planned: true,
    summary: 'Disable an account',
    params: UserIdParams,
    response: MessageSchema,
  },
  adminAdjustCredits: {
    method: 'POST',
    path: '/admin/users/{user_id}/credits',
    auth: 'admin',
    planned: true,
    summary: "Adjust a user's credits",
    params: UserIdParams,
    body: AdminAdjustCreditsSchema,
    response: MessageSchema,
  },
  adminActAsUser: {
    method: 'POST',
    path: '/admin/users/{user_id}/act-as',
    auth: 'admin',
    planned: true,
    summary: 'A token to act as the user',
    params: UserIdParams,
    response: ActAsUserSchema,
  },
  adminListPurchases: {
    method: 'GET',
    path: '/admin/users/{user_id}/purchases',
    auth: 'admin',
    planned: true,
    summary: "A user's purchase history",
    params: UserIdParams,
    query: PurchaseHistoryQuerySchema,
    response: PurchaseHistorySchema,
  },
});
