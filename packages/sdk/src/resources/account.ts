import {
  type AccountExport,
  type AccountLists,
  type CreditSnapshot,
  type DeletedAccount,
  type PlanStatus,
  routes,
  type UpdateUser,
  type UserInfo,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

/** The caller's own account: profile, plan, credits, which API key is active (never the key). */
export class Account extends APIResource {
  get(options?: RequestOptions): Promise<UserInfo> {
    return this.client.request(routes.getUser, {}, options);
  }

  /** Changes the name, address or purchase settings; fields left out keep their values. */
  update(changes: UpdateUser, options?: RequestOptions): Promise<UserInfo> {
    return this.client.request(routes.updateUser, changes, options);
  }

  /** Pauses (`'paused'`) or resumes (`'active'`) the plan; answers the server's message. */
  async setPlanStatus(status: PlanStatus, options?: RequestOptions): Promise<string> {
    const { message } = await this.client.request(routes.setPlanStatus, { status }, options);
    return message;
  }

  /** Credits left (`credits_remaining` reads `'unlimited'` on an active unlimited plan), plan and subscription. */
  credits(options?: RequestOptions): Promise<CreditSnapshot> {
    return this.client.request(routes.getCredits, {}, options);
  }

  /**
   * Operator lists (known litigators, vendors' lists): the ones the account's checks and jobs
   * count by default (`lists`) and every one the operator imported (`available`).
   */
  lists(options?: RequestOptions): Promise<AccountLists> {
    return this.client.request(routes.getLists, {}, options);
  }

  /** Sets the operator lists counted by default (`[]` for none); a name nobody imported is a `BadRequestError`. */
  setLists(lists: readonly string[], options?: RequestOptions): Promise<AccountLists> {
    return this.client.request(routes.setLists, { lists: [...lists] }, options);
  }

  /**
   * Everything the service keeps about the account, as one document: the profile, every file, every
   * purchase and the phone log. Keep it before `delete()`.
   */
  export(options?: RequestOptions): Promise<AccountExport> {
    return this.client.request(routes.exportAccount, {}, options);
  }

  /**
   * Deletes the account for good; `confirmEmail` is its e-mail address, typed again. Files, phone
   * log, suppression list, webhooks, API keys, saved cards and the sign-in go; the ledger and audit
   * rows stay under `tombstone_id`, without the e-mail. A `PermissionDeniedError` for an acting
   * session (only the owner deletes), a `ConflictError` while a job runs or a monthly plan is billed.
   */
  delete(confirmEmail: string, options?: RequestOptions): Promise<DeletedAccount> {
    return this.client.request(routes.deleteAccount, { confirm_email: confirmEmail }, options);
  }
}

/** @deprecated Use `Account` (`scrub.account`, the same object as `scrub.user`). */
export const User = Account;
/** @deprecated Use `Account`. */
export type User = Account;

/** The credit history and the old `scrub.credits.get()`: written in credits.ts. */
export { Credits } from './credits.js';
