import { z } from 'zod';
import { MessageSchema, RoleNameSchema, UserInfoSchema } from './account.js';
import { newPasswordSchema, PASSWORD_MIN_LENGTH } from './password-policy.js';
import { PlanReferenceSchema } from './plans.js';
import { PurchaseHistoryQuerySchema, PurchaseHistorySchema } from './purchases.js';
import { defineRoutes, MAX_PATH_PARAM_LENGTH } from './route-spec.js';
import { EMAIL_FORMAT } from './wire-formats.js';

/** Messages of the seed's admin screens, spelling corrected (seed document 1, section 5). */
export const adminMessages = {
  allFieldsRequired: 'All fields are required',
  passwordsDiffer: 'Both fields must have the same password',
  passwordBlank: "Password can't be blank!",
  passwordTooShort: `You have to enter at least ${PASSWORD_MIN_LENGTH} characters!`,
  confirmMismatch: "Confirm password doesn't match New password",
  accountCreated: 'Account created successfully',
  userDisabled: 'User deleted successfully',
  userEnabled: 'User enabled successfully',
  userUpdated: 'User updated successfully',
  passwordReset: 'Password reset successfully',
  signedOut: 'User signed out everywhere',
} as const;

/** An account's type as the admin screens set it (`ut`): one per role. */
export const USER_TYPES = ['user', 'agency', 'admin', 'super_admin'] as const;
export const UserTypeSchema = z.enum(USER_TYPES);
export type UserType = z.infer<typeof UserTypeSchema>;

export const AccountStatusSchema = z.enum(['active', 'disabled']);

/** The Agency a User account is a client of. */
export const AgencyLinkSchema = z.object({ user_id: z.string(), email: z.email() });

/** Managed user row (both seed documents, section 3), with what the list shows of the account. */
export const ManagedUserSchema = z
  .object({
    user_id: z.string(),
    full_name: z.string(),
    email: z.email(),
    role_name: RoleNameSchema,
    avatar: z.string().nullable(),
    credits: z.number().int().nonnegative(),
    status: AccountStatusSchema,
    created_at: z.string(),
    last_sign_in_at: z.string().nullable(),
    /** The Agency whose client the account is; null when none. */
    agency: AgencyLinkSchema.nullable(),
  })
  .meta({ id: 'ManagedUser' });
export type ManagedUser = z.infer<typeof ManagedUserSchema>;

export const AdminUserListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Part of the e-mail address or the name, any case. */
  search: z.string().trim().max(255).optional(),
  role: RoleNameSchema.optional(),
});
export const AdminUserListSchema = z
  .object({
    users: z.array(ManagedUserSchema),
    page: z.number().int(),
    total_pages: z.number().int(),
    total_users_count: z.number().int(),
  })
  .meta({ id: 'AdminUserList' });

/**
 * One user's info as an admin sees it: the user's own info plus status, sign-in times and the
 * Agency whose client the account is (null when none).
 */
export const AdminUserInfoSchema = UserInfoSchema.extend({
  status: AccountStatusSchema,
  disabled_at: z.string().nullable(),
  last_sign_in_at: z.string().nullable(),
  agency: AgencyLinkSchema.nullable(),
}).meta({ id: 'AdminUserInfo' });
export type AdminUserInfo = z.infer<typeof AdminUserInfoSchema>;

/** An Agency account named by its id or e-mail address (admins only: links a User account to it). */
const agencyField = z.string().trim().max(255);

const required = z.string({ error: adminMessages.allFieldsRequired }).min(1, adminMessages.allFieldsRequired);

/** Create account: the seed's keys (le e-mail, lp password, ut type) and the confirmation field. */
export const AdminCreateUserSchema = z
  .object({
    le: required.max(255).meta(EMAIL_FORMAT).pipe(z.email()),
    lp: required.max(256).pipe(newPasswordSchema(adminMessages.passwordTooShort)),
    lp_confirm: required.max(256),
    ut: UserTypeSchema.or(z.literal('').transform(() => undefined))
      .optional()
      .refine((type) => type !== undefined, adminMessages.allFieldsRequired),
    full_name: z.string().trim().max(100).optional(),
    /** Admins only: the Agency (id or e-mail) whose client the new User account is; blank for none. */
    agency: agencyField.optional(),
  })
  .strict()
  .refine((body) => body.lp === body.lp_confirm, {
    message: adminMessages.passwordsDiffer,
    path: ['lp_confirm'],
  });

/** Update a user: e-mail and type must be non-empty when sent; a blank password means unchanged. */
export const AdminUpdateUserSchema = z
  .object({
    le: z
      .string()
      .trim()
      .min(1, 'The e-mail address cannot be empty')
      .max(255)
      .meta(EMAIL_FORMAT)
      .pipe(z.email())
      .optional(),
    // Blank (unchanged) or a new password that meets the policy.
    lp: z
      .string()
      .max(256)
      .refine((password) => password.trim() === '' || newPasswordSchema().safeParse(password).success, {
        message: adminMessages.passwordTooShort,
      })
      .optional(),
    ut: UserTypeSchema.optional(),
    full_name: z.string().trim().max(100).optional(),
    /** Admins only: link the User account to this Agency (id or e-mail); blank or null unlinks it. */
    agency: agencyField.nullable().optional(),
  })
  .strict();

/** Reset a user's password: the seed's modal, its checks and messages. */
export const AdminResetPasswordSchema = z
  .object({
    password: z
      .string({ error: adminMessages.passwordBlank })
      .min(1, adminMessages.passwordBlank)
      .max(256)
      .pipe(newPasswordSchema(adminMessages.passwordTooShort)),
    confirm_password: z.string({ error: adminMessages.confirmMismatch }).max(256),
  })
  .strict()
  .refine((body) => body.password === body.confirm_password, {
    message: adminMessages.confirmMismatch,
    path: ['confirm_password'],
  });

/** Adjust credits: a signed change with a reason, written to the ledger and the audit log. */
export const AdminAdjustCreditsSchema = z
  .object({
    plan_credits: z
      .number()
      .int()
      .min(-2_147_483_647)
      .max(2_147_483_647)
      .refine((n) => n !== 0, 'the adjustment cannot be 0'),
    reason: z.string().trim().min(1, 'a reason is required').max(500),
    plan_reference: PlanReferenceSchema.optional(),
  })
  .strict();
export const AdminAdjustCreditsResultSchema = z
  .object({ message: z.string(), credits: z.number().int() })
  .meta({ id: 'AdminAdjustCreditsResult' });

/** Refund a purchase, in full or (`amount`, dollars) in part, with a reason the customer is sent. */
export const AdminRefundSchema = z
  .object({
    amount: z.number().positive().multipleOf(0.01).optional(),
    reason: z.string().trim().min(1, 'a reason is required').max(500),
  })
  .strict();
export const AdminRefundResultSchema = z
  .object({
    message: z.string(),
    /** The provider's refund id (`re_...`). */
    refund_id: z.string(),
    purchase_id: z.string(),
    amount: z.number(),
    /** Refunded so far for this purchase, this refund included. */
    refunded_amount: z.number(),
    /** Credits taken back from the balance. */
    credits_taken: z.number().int(),
    /** Credits the refund would take back that were already spent: recorded, not owed. */
    credits_shortfall: z.number().int(),
    /** The account's balance afterwards. */
    credits: z.number().int(),
  })
  .meta({ id: 'AdminRefundResult' });
export type AdminRefundResult = z.infer<typeof AdminRefundResultSchema>;

/** A short-lived token to act as a user; its `act` claim names the admin. */
export const ActAsUserSchema = z
  .object({
    token: z.string(),
    expires_at: z.string(),
    user_id: z.string(),
    email: z.email(),
  })
  .meta({ id: 'ActAsUser' });

export const AuditEntrySchema = z
  .object({
    id: z.string(),
    at: z.string(),
    /** Null when no account acted: a refund made in the payment provider's dashboard. */
    actor_id: z.string().nullable(),
    actor_email: z.string(),
    subject_id: z.string().nullable(),
    subject_email: z.string().nullable(),
    action: z.string(),
    detail: z.record(z.string(), z.unknown()),
    request_id: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Only entries about this account (its id). */
  subject_id: z.uuid().optional(),
});
export const AuditListSchema = z
  .object({
    entries: z.array(AuditEntrySchema),
    page: z.number().int(),
    total_pages: z.number().int(),
    total_entries_count: z.number().int(),
  })
  .meta({ id: 'AuditList' });

/** The account's id, or its e-mail address. */
const UserIdParams = z.object({ user_id: z.string().trim().min(1).max(MAX_PATH_PARAM_LENGTH) });

/** The name of the response header every answer to an act-as request carries. */
export const ACTING_AS_HEADER = 'x-scrub-acting-as';
export const ACTING_ADMIN_HEADER = 'x-scrub-acting-admin';

export const adminRoutes = defineRoutes('admin', {
  adminListUsers: {
    method: 'GET',
    path: '/admin/users',
    auth: 'agency',
    summary: "All users (an Agency's: its clients): paged, searched by e-mail or name, filtered by role",
    query: AdminUserListQuerySchema,
    response: AdminUserListSchema,
  },
  adminCreateUser: {
    method: 'POST',
    path: '/admin/users',
    auth: 'agency',
    errors: ['conflict'],
    summary: 'Create an account (only a Super Admin creates admins; an Agency creates its own clients)',
    body: AdminCreateUserSchema,
    response: ManagedUserSchema,
    status: 201,
  },
  adminGetUser: {
    method: 'GET',
    path: '/admin/users/{user_id}',
    auth: 'agency',
    summary: "A user's info",
    params: UserIdParams,
    response: AdminUserInfoSchema,
  },
  adminUpdateUser: {
    method: 'PUT',
    path: '/admin/users/{user_id}',
    auth: 'agency',
    errors: ['conflict'],
    summary: "Change a user's e-mail, password or type",
    params: UserIdParams,
    body: AdminUpdateUserSchema,
    response: MessageSchema,
  },
  adminDeleteUser: {
    method: 'DELETE',
    path: '/admin/users/{user_id}',
    auth: 'agency',
    errors: ['conflict'],
    summary: 'Disable an account (nothing is deleted)',
    params: UserIdParams,
    response: MessageSchema,
  },
  adminEnableUser: {
    method: 'POST',
    path: '/admin/users/{user_id}/enable',
    auth: 'agency',
    summary: 'Enable a disabled account',
    params: UserIdParams,
    response: MessageSchema,
  },
  adminResetPassword: {
    method: 'PUT',
    path: '/admin/users/{user_id}/password',
    auth: 'agency',
    errors: ['conflict'],
    summary: "Set a user's password; their earlier tokens stop working",
    params: UserIdParams,
    body: AdminResetPasswordSchema,
    response: MessageSchema,
  },
  adminSignOutUser: {
    method: 'POST',
    path: '/admin/users/{user_id}/sign-out',
    auth: 'admin',
    summary: 'Sign a user out everywhere; their earlier tokens stop working',
    params: UserIdParams,
    response: MessageSchema,
  },
  adminAdjustCredits: {
    method: 'POST',
    path: '/admin/users/{user_id}/credits',
    auth: 'admin',
    errors: ['insufficient_credits'],
    summary: "Adjust a user's credits, with a reason",
    params: UserIdParams,
    body: AdminAdjustCreditsSchema,
    response: AdminAdjustCreditsResultSchema,
  },
  adminActAsUser: {
    method: 'POST',
    path: '/admin/users/{user_id}/act-as',
    auth: 'agency',
    errors: ['conflict'],
    summary: 'A short-lived token to act as the user',
    params: UserIdParams,
    response: ActAsUserSchema,
  },
  adminListPurchases: {
    method: 'GET',
    path: '/admin/users/{user_id}/purchases',
    auth: 'agency',
    summary: "A user's purchase history",
    params: UserIdParams,
    query: PurchaseHistoryQuerySchema,
    response: PurchaseHistorySchema,
  },
  adminRefundPurchase: {
    method: 'POST',
    path: '/admin/users/{user_id}/purchases/{purchase_id}/refund',
    auth: 'admin',
    errors: ['conflict', 'service_unavailable'],
    summary: 'Refund a purchase in full or in part; its credits are taken back pro rata',
    params: UserIdParams.extend({ purchase_id: z.uuid() }),
    body: AdminRefundSchema,
    response: AdminRefundResultSchema,
  },
  adminListAudit: {
    method: 'GET',
    path: '/admin/audit',
    auth: 'super_admin',
    summary: 'The audit log, newest first (read-only)',
    query: AuditQuerySchema,
    response: AuditListSchema,
  },
});
