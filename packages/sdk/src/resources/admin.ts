import {
  type AdminUserInfo,
  type AuditEntry,
  type InputOf,
  type ManagedUser,
  type OutputOf,
  type RoleName,
  routes,
} from '@scrub/contract';
import { MemoryTokenStorage } from '../auth/token-storage.js';
import type { RequestOptions, Scrub } from '../client.js';
import { fetchFunction } from '../core/internal.js';
import { type NumberedPage, numberedPage } from '../core/numbered-page.js';
import { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';

type AdminUserList = OutputOf<typeof routes.adminListUsers>;
type AuditList = OutputOf<typeof routes.adminListAudit>;

/** `GET /admin/users`: `page` 1 and `limit` 20 by default; `search` matches e-mail or name. */
export interface AdminUserListParams {
  page?: number;
  limit?: number;
  search?: string;
  role?: RoleName;
}
export type AdminUserPage = NumberedPage<AdminUserList, ManagedUser>;
export type AuditPage = NumberedPage<AuditList, AuditEntry>;

/** `le` e-mail, `lp` password, `lp_confirm` the same again, `ut` the type (the seed's keys). */
export type AdminCreateUserParams = InputOf<typeof routes.adminCreateUser>;
export type AdminUpdateUserParams = Omit<InputOf<typeof routes.adminUpdateUser>, 'user_id'>;
export type ActAsToken = OutputOf<typeof routes.adminActAsUser>;

/**
 * Accounts, for Admins and Super Admins, and for an Agency over its own client accounts (any other
 * account is a `NotFoundError` to it). A user is named by id or e-mail address.
 */
export class AdminUsers extends APIResource {
  /** Every account, newest first: `await` it for one page, iterate it for every user of every page. */
  list(params: AdminUserListParams = {}, options?: RequestOptions): PagePromise<AdminUserPage, ManagedUser> {
    const fetchPage = async (page: number): Promise<AdminUserPage> =>
      numberedPage(
        await this.client.request(routes.adminListUsers, { ...params, page }, options),
        (l) => l.users,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }

  /** Credits, plan, status, API key's last 4, created and last sign-in. */
  get(user: string, options?: RequestOptions): Promise<AdminUserInfo> {
    return this.client.request(routes.adminGetUser, { user_id: user }, options);
  }

  /** Only a Super Admin creates admins. `ValidationError` says 'All fields are required' and the like. */
  create(params: AdminCreateUserParams, options?: RequestOptions): Promise<ManagedUser> {
    return this.client.request(routes.adminCreateUser, params, options);
  }

  /** E-mail, password, type, name; a blank password leaves it unchanged. */
  update(user: string, params: AdminUpdateUserParams, options?: RequestOptions) {
    return this.client.request(routes.adminUpdateUser, { ...params, user_id: user }, options);
  }

  /** Its key, its tokens and its queued jobs (refunded) stop at once; nothing is deleted. */
  disable(user: string, options?: RequestOptions) {
    return this.client.request(routes.adminDeleteUser, { user_id: user }, options);
  }

  enable(user: string, options?: RequestOptions) {
    return this.client.request(routes.adminEnableUser, { user_id: user }, options);
  }

  /** Sets the password; the user's earlier tokens stop working. */
  resetPassword(user: string, password: string, confirmPassword = password, options?: RequestOptions) {
    return this.client.request(
      routes.adminResetPassword,
      { user_id: user, password, confirm_password: confirmPassword },
      options,
    );
  }

  /** Ends every session of the user. */
  signOut(user: string, options?: RequestOptions) {
    return this.client.request(routes.adminSignOutUser, { user_id: user }, options);
  }

  /** Adds (positive) or takes (negative) credits, with a reason; never below zero (`InsufficientCreditsError`). */
  adjustCredits(user: string, credits: number, reason: string, options?: RequestOptions) {
    return this.client.request(
      routes.adminAdjustCredits,
      { user_id: user, plan_credits: credits, reason },
      options,
    );
  }

  purchases(
    user: string,
    params: Omit<InputOf<typeof routes.adminListPurchases>, 'user_id'> = {},
    options?: RequestOptions,
  ) {
    return this.client.request(routes.adminListPurchases, { ...params, user_id: user }, options);
  }

  /**
   * Refunds a purchase (its `purchase_id` from `purchases`) in full, or `amount` dollars of it, with
   * a reason the customer is mailed. Its credits are taken back pro rata, never below zero.
   */
  refund(
    user: string,
    purchaseId: string,
    params: Omit<InputOf<typeof routes.adminRefundPurchase>, 'user_id' | 'purchase_id'>,
    options?: RequestOptions,
  ) {
    return this.client.request(
      routes.adminRefundPurchase,
      { ...params, user_id: user, purchase_id: purchaseId },
      options,
    );
  }

  /** A short-lived token to act as the user (never a Super Admin); `asUser` makes a client of it. */
  actAs(user: string, options?: RequestOptions): Promise<ActAsToken> {
    return this.client.request(routes.adminActAsUser, { user_id: user }, options);
  }

  /**
   * A client that calls the API as the user the token names: every answer then carries
   * `x-scrub-acting-as`, every call is in the audit log, and admin calls are refused.
   */
  asUser(token: ActAsToken | string): Scrub {
    const Client = this.client.constructor as new (options: ConstructorParameters<typeof Scrub>[0]) => Scrub;
    const fetch = this.client[fetchFunction]();
    return new Client({
      baseURL: this.client.baseURL,
      maxRetries: this.client.maxRetries,
      timeout: this.client.timeout,
      apiKey: null,
      tokenStorage: new MemoryTokenStorage(),
      defaultHeaders: { authorization: `Bearer ${typeof token === 'string' ? token : token.token}` },
      ...(fetch ? { fetch } : {}),
    });
  }
}

/** The audit log, for Super Admins: read-only. */
export class AdminAudit extends APIResource {
  list(
    params: { page?: number; limit?: number; subject_id?: string } = {},
    options?: RequestOptions,
  ): PagePromise<AuditPage, AuditEntry> {
    const fetchPage = async (page: number): Promise<AuditPage> =>
      numberedPage(
        await this.client.request(routes.adminListAudit, { ...params, page }, options),
        (l) => l.entries,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }
}

/** The admin area: `scrub.admin.users`, `scrub.admin.audit`. */
export class Admin {
  readonly users: AdminUsers;
  readonly audit: AdminAudit;

  constructor(client: Scrub) {
    this.users = new AdminUsers(client);
    this.audit = new AdminAudit(client);
  }
}
