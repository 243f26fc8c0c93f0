import { z } from 'zod';
import { PlanReferenceSchema } from './plans.js';
import { RoleNameSchema } from './user.js';

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

/** Create account: the seed's payload keys (le e-mail, lp password, ut user type). */
export const AdminCreateUserSchema = z
  .object({ le: z.email(), lp: z.string().min(6), ut: z.enum(['user', 'admin']).default('user') })
  .strict();
/** Update a user: e-mail and type must be non-empty; a blank password means unchanged. */
export const AdminUpdateUserSchema = z
  .object({ le: z.email().optional(), lp: z.string().optional(), ut: z.enum(['user', 'admin']).optional() })
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
