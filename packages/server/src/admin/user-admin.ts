import type { RoleName, UserType } from '@scrub/contract';
import type { Kysely } from 'kysely';
import { applyLedgerEntry } from '../account/ledger.js';
import type { Profile } from '../account/profiles.js';
import { mayManageRole } from '../auth/access.js';
import type { ActAsTokens } from '../auth/act-as-tokens.js';
import type { ApiKeyOwners } from '../auth/api-key-owners.js';
import type { Principal } from '../auth/principal.js';
import type { OnJobEnd } from '../bulk/job-store.js';
import { ApiError } from '../errors/api-error.js';
import type { IdentityAdmin } from '../identity-admin/identity-admin.js';
import type { Database } from '../storage/schema.js';
import { disableAccount, enableAccount, insertProfile, revokeTokens } from './account-status.js';
import { recordAudit } from './audit-log.js';
import { findAgency, managedUser } from './user-directory.js';

const roleOfType: Record<UserType, RoleName> = {
  user: 'User',
  agency: 'Agency',
  admin: 'Admin',
  super_admin: 'Super Admin',
};

const forbidden = (why: string) => new ApiError('forbidden', `${why} Only a Super Admin may do that.`);
const agencyRefused = (why: string) =>
  new ApiError('forbidden', `${why} An Agency manages User accounts only.`);
const notAUser = () =>
  new ApiError('validation_failed', "agency: only a User account can be an Agency's client.", {
    issues: [{ location: 'body', path: 'agency', message: "only a User account can be an Agency's client" }],
  });

/** Who acts, and the request it is part of, for the audit log. */
export interface AdminCall {
  actor: Principal;
  requestId: string;
}

export interface UserAdminOptions {
  db: Kysely<Database>;
  /** Answers null when the service has no identity provider: only changes of its own data then work. */
  identity: () => Promise<IdentityAdmin | null>;
  apiKeyOwners: ApiKeyOwners;
  actAsTokens: ActAsTokens;
  /** Runs in the transaction that fails each job of a disabled account (its `job.failed` event). */
  onJobEnd?: OnJobEnd | undefined;
  /** Tells every process a job ended (its waiting clients, the webhook deliverer). */
  jobEnded?: ((jobId: string) => Promise<void>) | undefined;
}

/**
 * The admin area's changes to accounts: each checks the actor may touch the account (only a Super
 * Admin makes, changes or removes admins), changes the identity provider and the profile, and
 * writes the audit log.
 */
export class UserAdmin {
  constructor(private readonly options: UserAdminOptions) {}

  /** An Agency's new account is a User account and its client; an admin may link it to an Agency. */
  async create(
    call: AdminCall,
    input: {
      le: string;
      lp: string;
      ut: UserType;
      full_name?: string | undefined;
      agency?: string | undefined;
    },
  ) {
    const role = roleOfType[input.ut];
    if (!mayManageRole(call.actor.role, role)) throw forbidden('Creating an admin account is refused.');
    const agencyId = await this.#agencyOfNew(call, role, input.agency);
    const created = await (await this.#identity()).createUser({
      email: input.le,
      password: input.lp,
      role,
      ...(input.full_name ? { name: input.full_name } : {}),
    });
    const profile = await insertProfile(this.options.db, {
      sub: created.sub,
      email: created.email,
      name: input.full_name ?? '',
      role,
      agencyId,
    });
    await this.#audit(call, profile, 'user.create', { role, ...(agencyId ? { agency_id: agencyId } : {}) });
    return managedUser(this.options.db, profile);
  }

  async update(
    call: AdminCall,
    target: Profile,
    change: {
      le?: string | undefined;
      lp?: string | undefined;
      ut?: UserType | undefined;
      full_name?: string | undefined;
      agency?: string | null | undefined;
    },
  ) {
    this.#mayTouch(call, target);
    const role = change.ut ? roleOfType[change.ut] : undefined;
    if (role && !mayManageRole(call.actor.role, role))
      throw forbidden('Making an account an admin is refused.');
    const agencyId = await this.#agencyAfterUpdate(call, target, role ?? target.role, change.agency);
    const identity = await this.#identity();
    if (change.le !== undefined || change.full_name !== undefined) {
      await identity.updateUserAttributes(target.sub, { email: change.le, name: change.full_name });
    }
    // A blank password leaves it unchanged (seed document 1, section 5).
    const password = change.lp?.trim() ? change.lp : undefined;
    if (password) await identity.setUserPassword(target.sub, password);
    if (role && role !== target.role) await identity.setRole(target.sub, role);
    await this.options.db
      .updateTable('profiles')
      .set({
        updated_at: new Date(),
        ...(change.le !== undefined ? { email: change.le } : {}),
        ...(change.full_name !== undefined ? { user_name: change.full_name } : {}),
        ...(role ? { role } : {}),
        ...(agencyId !== target.agency_id ? { agency_id: agencyId } : {}),
      })
      .where('id', '=', target.id)
      .execute();
    // Earlier tokens carry the old e-mail, groups or password's session: each would put the old
    // e-mail or role back on the profile at its next call, so none may be used any more.
    const emailChanged = change.le !== undefined && change.le.toLowerCase() !== target.email.toLowerCase();
    if (password || emailChanged || (role && role !== target.role))
      await revokeTokens(this.options.db, target.id);
    this.options.apiKeyOwners.forget(target.id);
    await this.#audit(call, target, 'user.update', {
      ...(change.le !== undefined ? { email: change.le } : {}),
      ...(role ? { role } : {}),
      ...(agencyId !== target.agency_id ? { agency_id: agencyId } : {}),
      password_changed: password !== undefined,
    });
  }

  async disable(call: AdminCall, target: Profile): Promise<number> {
    this.#mayTouch(call, target);
    if (target.id === call.actor.profileId) {
      throw new ApiError('conflict', 'You cannot disable your own account.');
    }
    await (await this.options.identity())?.disableUser(target.sub);
    const failed = await disableAccount(this.options.db, target.id, this.options.onJobEnd);
    this.options.apiKeyOwners.forget(target.id);
    for (const jobId of failed) await this.options.jobEnded?.(jobId);
    await this.#audit(call, target, 'user.disable', { failed_jobs: failed.length });
    return failed.length;
  }

  async enable(call: AdminCall, target: Profile): Promise<void> {
    this.#mayTouch(call, target);
    await (await this.options.identity())?.enableUser(target.sub);
    await enableAccount(this.options.db, target.id);
    this.options.apiKeyOwners.forget(target.id);
    await this.#audit(call, target, 'user.enable');
  }

  async resetPassword(call: AdminCall, target: Profile, password: string): Promise<void> {
    this.#mayTouch(call, target);
    await (await this.#identity()).setUserPassword(target.sub, password);
    await revokeTokens(this.options.db, target.id);
    await this.#audit(call, target, 'user.reset_password');
  }

  async signOut(call: AdminCall, target: Profile): Promise<void> {
    this.#mayTouch(call, target);
    await (await this.options.identity())?.globalSignOut(target.sub);
    await revokeTokens(this.options.db, target.id);
    await this.#audit(call, target, 'user.sign_out');
  }

  /** A signed change with a reason: a ledger entry naming the admin, never below zero (402). */
  async adjustCredits(call: AdminCall, target: Profile, input: { plan_credits: number; reason: string }) {
    const entry = await applyLedgerEntry(this.options.db, {
      profileId: target.id,
      delta: input.plan_credits,
      kind: 'adjustment',
      reference: `admin:${call.actor.profileId}`,
      note: `${call.actor.email}: ${input.reason}`.slice(0, 500),
    });
    await this.#audit(call, target, 'credits.adjust', {
      delta: input.plan_credits,
      reason: input.reason,
      balance_after: entry.balance,
      ledger_entry: entry.entryId,
    });
    return entry.balance;
  }

  /** A short-lived token to act as the user; never as a Super Admin, never from an act-as token. */
  async actAs(call: AdminCall, target: Profile) {
    if (target.role === 'Super Admin') throw new ApiError('forbidden', 'Nobody may act as a Super Admin.');
    this.#mayTouch(call, target);
    if (target.disabled_at) throw new ApiError('conflict', 'This account is disabled: enable it first.');
    const issued = await this.options.actAsTokens.issue({
      userId: target.id,
      adminId: call.actor.profileId,
      adminEmail: call.actor.email,
    });
    await this.#audit(call, target, 'act_as.start', { expires_at: issued.expiresAt.toISOString() });
    return {
      token: issued.token,
      expires_at: issued.expiresAt.toISOString(),
      user_id: target.id,
      email: target.email,
    };
  }

  /** The Agency a new account is the client of: the Agency creating it, or the one an admin names. */
  async #agencyOfNew(call: AdminCall, role: RoleName, agency: string | undefined): Promise<string | null> {
    if (call.actor.role === 'Agency') {
      if (role !== 'User')
        throw agencyRefused(`Creating ${role === 'Agency' ? 'an' : 'a'} ${role} account is refused.`);
      if (agency) throw agencyRefused('Linking an account to another Agency is refused.');
      return call.actor.profileId;
    }
    if (!agency) return null;
    if (role !== 'User') throw notAUser();
    return (await findAgency(this.options.db, agency)).id;
  }

  /**
   * The Agency an account is the client of after an update: an Agency changes neither the type of
   * its clients nor their Agency; an admin links (an Agency's id or e-mail) or unlinks (blank or
   * null), and an account that stops being a User account stops being a client.
   */
  async #agencyAfterUpdate(
    call: AdminCall,
    target: Profile,
    role: RoleName,
    agency: string | null | undefined,
  ): Promise<string | null> {
    if (call.actor.role === 'Agency') {
      if (role !== 'User') throw agencyRefused("Changing a client's type is refused.");
      if (agency !== undefined) throw agencyRefused('Linking an account to another Agency is refused.');
      return target.agency_id;
    }
    if (agency === undefined) return role === 'User' ? target.agency_id : null;
    if (agency === null || agency === '') return null;
    if (role !== 'User') throw notAUser();
    return (await findAgency(this.options.db, agency)).id;
  }

  #mayTouch(call: AdminCall, target: Profile): void {
    if (!mayManageRole(call.actor.role, target.role)) throw forbidden(`${target.email} is an admin.`);
  }

  async #identity(): Promise<IdentityAdmin> {
    const identity = await this.options.identity();
    if (!identity) {
      throw new ApiError(
        'service_unavailable',
        'This service has no identity provider configured, so it cannot create accounts or set passwords.',
      );
    }
    return identity;
  }

  #audit(call: AdminCall, subject: Profile, action: string, detail: Record<string, unknown> = {}) {
    return recordAudit(this.options.db, {
      actor: { profileId: call.actor.profileId, email: call.actor.email },
      subject: { profileId: subject.id, email: subject.email },
      action,
      detail,
      requestId: call.requestId,
    });
  }
}
