import { z } from 'zod';
import {
  ActAsUserSchema,
  AdminAdjustCreditsSchema,
  AdminCreateUserSchema,
  AdminUpdateUserSchema,
  AdminUserListQuerySchema,
  AdminUserListSchema,
  ManagedUserSchema,
} from './admin.js';
import { BulkJobSchema, CreateBulkJobSchema, CreatedBulkJobSchema, ResultFilterSchema } from './bulk.js';
import { FileListQuerySchema, FileListSchema, FileViewSchema } from './files.js';
import {
  ChangePaymentMethodSchema,
  ChangeSubscriptionSchema,
  CreateSubscriptionSchema,
  ExistsSchema,
  PatchSubscriptionSchema,
  PaymentMethodListSchema,
  PaymentSetupRequestSchema,
  PurchaseHistoryQuerySchema,
  PurchaseHistorySchema,
  PurchaseRequestSchema,
  PurchaseResultSchema,
  SubscriptionStateSchema,
} from './payments.js';
import { PlanListSchema } from './plans.js';
import { ClientConfigSchema, HealthSchema } from './service.js';
import {
  ApiKeyRotationSchema,
  CreditSnapshotSchema,
  MessageSchema,
  PlanStatusUpdateSchema,
  UpdateUserSchema,
  UserInfoSchema,
} from './user.js';
import { VerifyQuerySchema, VerifyResultSchema } from './verify.js';

/**
 * none: public. user: a bearer ID token or an API key (`x-api-key`). admin: a bearer ID token of
 * an Admin or Super Admin.
 */
export type RouteAuth = 'none' | 'user' | 'admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI style: `/bulk/jobs/{job_id}`. */
  path: string;
  auth: RouteAuth;
  /** The API key may also come as the `k` query parameter (/verify and /credits, as the seeds show). */
  apiKeyInQuery?: boolean;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Absent when the answer is not JSON (CSV downloads). */
  response?: z.ZodType;
  status?: number;
}

const defineRoute = <const R extends RouteSpec>(route: R): R => route;

const JobIdParams = z.object({ job_id: z.string().min(1).max(64) });
const FileReferenceParams = z.object({ file_reference: z.string().min(1).max(64) });
const UserIdParams = z.object({ user_id: z.string().min(1).max(64) });

/**
 * Every call of the product, written once. Where the seeds say "method and path not shown" the
 * choice made here is final: the SDK hides it and the server implements it.
 */
export const routes = {
  health: defineRoute({
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Service health',
    response: HealthSchema,
  }),
  config: defineRoute({
    method: 'GET',
    path: '/config',
    auth: 'none',
    summary: 'What clients need to know: identity pool, payment provider, limits',
    response: ClientConfigSchema,
  }),
  listPlans: defineRoute({
    method: 'GET',
    path: '/plans',
    auth: 'none',
    summary: 'The plan catalogue',
    response: PlanListSchema,
  }),

  getUser: defineRoute({
    method: 'GET',
    path: '/user',
    auth: 'user',
    summary: 'User info',
    response: UserInfoSchema,
  }),
  updateUser: defineRoute({
    method: 'PUT',
    path: '/user',
    auth: 'user',
    summary: 'Update profile and billing address',
    body: UpdateUserSchema,
    response: UserInfoSchema,
  }),
  setPlanStatus: defineRoute({
    method: 'PUT',
    path: '/user/plan-status',
    auth: 'user',
    summary: 'Pause or resume the plan',
    body: PlanStatusUpdateSchema,
    response: MessageSchema,
  }),
  rotateApiKey: defineRoute({
    method: 'PUT',
    path: '/apikey',
    auth: 'user',
    summary: 'Generate a new API key; the old one stops working at once',
    response: ApiKeyRotationSchema,
  }),
  getCredits: defineRoute({
    method: 'GET',
    path: '/credits',
    auth: 'user',
    apiKeyInQuery: true,
    summary: 'Credit snapshot',
    query: z.object({ k: z.string().max(200).optional() }),
    response: CreditSnapshotSchema,
  }),
  verify: defineRoute({
    method: 'GET',
    path: '/verify',
    auth: 'user',
    apiKeyInQuery: true,
    summary: 'Check one phone number',
    query: VerifyQuerySchema,
    response: VerifyResultSchema,
  }),

  customerExists: defineRoute({
    method: 'GET',
    path: '/customer/exists',
    auth: 'user',
    summary: 'Whether a payment customer exists',
    response: ExistsSchema,
  }),
  listPaymentMethods: defineRoute({
    method: 'GET',
    path: '/payment-methods',
    auth: 'user',
    summary: 'Saved cards',
    response: PaymentMethodListSchema,
  }),
  paymentMethodExists: defineRoute({
    method: 'GET',
    path: '/payment-methods/exists',
    auth: 'user',
    summary: 'Whether a saved card exists',
    response: ExistsSchema,
  }),
  setupPayment: defineRoute({
    method: 'POST',
    path: '/payment/setup',
    auth: 'user',
    summary: 'Save a card and billing address',
    body: PaymentSetupRequestSchema,
    response: MessageSchema,
  }),
  purchase: defineRoute({
    method: 'POST',
    path: '/payment',
    auth: 'user',
    summary: 'Buy a plan',
    body: PurchaseRequestSchema,
    response: PurchaseResultSchema,
  }),
  changePaymentMethod: defineRoute({
    method: 'PUT',
    path: '/payment-method',
    auth: 'user',
    summary: 'Change the default card',
    body: ChangePaymentMethodSchema,
    response: MessageSchema,
  }),
  getSubscription: defineRoute({
    method: 'GET',
    path: '/subscription',
    auth: 'user',
    summary: 'Current subscription',
    response: SubscriptionStateSchema,
  }),
  createSubscription: defineRoute({
    method: 'POST',
    path: '/subscription',
    auth: 'user',
    summary: 'Subscribe to a postpaid plan',
    body: CreateSubscriptionSchema,
    response: SubscriptionStateSchema,
  }),
  changeSubscription: defineRoute({
    method: 'PUT',
    path: '/subscription',
    auth: 'user',
    summary: 'Switch to another postpaid plan',
    body: ChangeSubscriptionSchema,
    response: SubscriptionStateSchema,
  }),
  patchSubscription: defineRoute({
    method: 'PATCH',
    path: '/subscription',
    auth: 'user',
    summary: 'Pause or resume the subscription',
    body: PatchSubscriptionSchema,
    response: SubscriptionStateSchema,
  }),
  cancelSubscription: defineRoute({
    method: 'DELETE',
    path: '/subscription',
    auth: 'user',
    summary: 'Cancel at the end of the period',
    response: SubscriptionStateSchema,
  }),
  listPurchases: defineRoute({
    method: 'GET',
    path: '/purchases',
    auth: 'user',
    summary: 'Purchase history',
    query: PurchaseHistoryQuerySchema,
    response: PurchaseHistorySchema,
  }),

  createBulkJob: defineRoute({
    method: 'POST',
    path: '/bulk/jobs',
    auth: 'user',
    summary: 'Create a bulk job; answers the upload URL',
    body: CreateBulkJobSchema,
    response: CreatedBulkJobSchema,
    status: 201,
  }),
  submitBulkJob: defineRoute({
    method: 'POST',
    path: '/bulk/jobs/{job_id}/submit',
    auth: 'user',
    summary: 'Check credits and queue an uploaded job',
    params: JobIdParams,
    response: BulkJobSchema,
  }),
  getBulkJob: defineRoute({
    method: 'GET',
    path: '/bulk/jobs/{job_id}',
    auth: 'user',
    summary: 'A bulk job',
    params: JobIdParams,
    response: BulkJobSchema,
  }),
  listFiles: defineRoute({
    method: 'GET',
    path: '/files',
    auth: 'user',
    summary: "The user's files, newest first",
    query: FileListQuerySchema,
    response: FileListSchema,
  }),
  getFile: defineRoute({
    method: 'GET',
    path: '/files/{file_reference}',
    auth: 'none',
    summary: 'One file by its unguessable reference (the public file detail page)',
    params: FileReferenceParams,
    response: FileViewSchema,
  }),
  downloadResult: defineRoute({
    method: 'GET',
    path: '/files/{file_reference}/result',
    auth: 'none',
    summary: 'The result CSV, filtered on the server',
    params: FileReferenceParams,
    query: ResultFilterSchema,
  }),
  downloadUpload: defineRoute({
    method: 'GET',
    path: '/files/{file_reference}/upload',
    auth: 'none',
    summary: 'The CSV as uploaded',
    params: FileReferenceParams,
  }),

  adminListUsers: defineRoute({
    method: 'GET',
    path: '/admin/users',
    auth: 'admin',
    summary: 'All users',
    query: AdminUserListQuerySchema,
    response: AdminUserListSchema,
  }),
  adminCreateUser: defineRoute({
    method: 'POST',
    path: '/admin/users',
    auth: 'admin',
    summary: 'Create an account',
    body: AdminCreateUserSchema,
    response: ManagedUserSchema,
    status: 201,
  }),
  adminGetUser: defineRoute({
    method: 'GET',
    path: '/admin/users/{user_id}',
    auth: 'admin',
    summary: "A user's info",
    params: UserIdParams,
    response: UserInfoSchema,
  }),
  adminUpdateUser: defineRoute({
    method: 'PUT',
    path: '/admin/users/{user_id}',
    auth: 'admin',
    summary: "Change a user's e-mail, password or type",
    params: UserIdParams,
    body: AdminUpdateUserSchema,
    response: MessageSchema,
  }),
  adminDeleteUser: defineRoute({
    method: 'DELETE',
    path: '/admin/users/{user_id}',
    auth: 'admin',
    summary: 'Disable an account',
    params: UserIdParams,
    response: MessageSchema,
  }),
  adminAdjustCredits: defineRoute({
    method: 'POST',
    path: '/admin/users/{user_id}/credits',
    auth: 'admin',
    summary: "Adjust a user's credits",
    params: UserIdParams,
    body: AdminAdjustCreditsSchema,
    response: MessageSchema,
  }),
  adminActAsUser: defineRoute({
    method: 'POST',
    path: '/admin/users/{user_id}/act-as',
    auth: 'admin',
    summary: 'A token to act as the user',
    params: UserIdParams,
    response: ActAsUserSchema,
  }),
  adminListPurchases: defineRoute({
    method: 'GET',
    path: '/admin/users/{user_id}/purchases',
    auth: 'admin',
    summary: "A user's purchase history",
    params: UserIdParams,
    query: PurchaseHistoryQuerySchema,
    response: PurchaseHistorySchema,
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof routes;

/** Fills `{name}` placeholders of a route path, escaping each value. */
export function pathFor(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}
