import {
  type Address,
  AddressSchema,
  type CreditSnapshot,
  type RoleName,
  UNLIMITED_PLAN_REFERENCES,
  type UpdateUser,
  type UserInfo,
} from '@scrub/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import { activeApiKeyMetadata } from '../auth/api-keys.js';
import { isAdminRole } from '../auth/roles.js';
import type { Database, ProfilesTable } from '../storage/schema.js';

export type Profile = Selectable<ProfilesTable>;

/** What the identity provider says about a caller, and the role worked out from it. */
export interface ProfileIdentity {
  sub: string;
  email: string;
  name: string | null;
  role: RoleName;
}

/** The plan name shown when a profile has no plan (seed document 1, AccountInfo). */
export const NO_PLAN_NAME = 'Pay as you go';

/**
 * The caller's profile, created on their first authenticated call. Concurrent first calls insert
 * at most one row (`on conflict do nothing`, then read what won). E-mail and role follow the
 * identity provider: they are updated when a newer token says otherwise.
 */
export async function ensureProfile(db: Kysely<Database>, identity: ProfileIdentity): Promise<Profile> {
  let profile = await db
    .selectFrom('profiles')
    .selectAll()
    .where('sub', '=', identity.sub)
    .executeTakeFirst();
  if (!profile) {
    profile =
      (await db
        .insertInto('profiles')
        .values({
          sub: identity.sub,
          email: identity.email,
          user_name: identity.name ?? '',
          role: identity.role,
          plan_reference: null,
          plan_expires_at: null,
        })
        .onConflict((oc) => oc.column('sub').doNothing())
        .returningAll()
        .executeTakeFirst()) ??
      (await db.selectFrom('profiles').selectAll().where('sub', '=', identity.sub).executeTakeFirstOrThrow());
  }
  if (profile.email !== identity.email || profile.role !== identity.role) {
    profile = await db
      .updateTable('profiles')
      .set({ email: identity.email, role: identity.role, updated_at: new Date() })
      .where('id', '=', profile.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  return profile;
}

export async function getProfile(db: Kysely<Database>, profileId: string): Promise<Profile> {
  return db.selectFrom('profiles').selectAll().where('id', '=', profileId).executeTakeFirstOrThrow();
}

/** Profiles with this e-mail, newest first (case-insensitive; a re-created identity has a new `sub`). */
export async function findProfilesByEmail(db: Kysely<Database>, email: string): Promise<Profile[]> {
  return db
    .selectFrom('profiles')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .orderBy('created_at', 'desc')
    .execute();
}

/** Changes name, address (merged field by field, in one statement) and purchase settings. */
export async function updateProfile(
  db: Kysely<Database>,
  profileId: string,
  change: UpdateUser,
): Promise<void> {
  await db
    .updateTable('profiles')
    .set({
      updated_at: new Date(),
      ...(change.user_name !== undefined ? { user_name: change.user_name } : {}),
      ...(change.address
        ? { address: sql<string>`address || ${JSON.stringify(change.address)}::jsonb` }
        : {}),
      ...(change.purchase_settings ? { purchase_settings: JSON.stringify(change.purchase_settings) } : {}),
    })
    .where('id', '=', profileId)
    .execute();
}

export async function setPlanStatus(
  db: Kysely<Database>,
  profileId: string,
  status: 'active' | 'paused',
): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ plan_status: status, updated_at: new Date() })
    .where('id', '=', profileId)
    .execute();
}

/**
 * Unlimited holders are never charged: an unlimited plan reference (seed document 2, section 6)
 * that is active and, for the time-limited pass, not over.
 */
export function hasUnlimited(
  profile: Pick<Profile, 'plan_reference' | 'plan_status' | 'plan_expires_at'>,
  now = new Date(),
): boolean {
  return (
    profile.plan_reference !== null &&
    (UNLIMITED_PLAN_REFERENCES as readonly string[]).includes(profile.plan_reference) &&
    profile.plan_status === 'active' &&
    (profile.plan_expires_at === null || profile.plan_expires_at > now)
  );
}

async function planName(db: Kysely<Database>, profile: Profile): Promise<string> {
  if (profile.plan_reference === null) return NO_PLAN_NAME;
  const plan = await db
    .selectFrom('plans')
    .select('plan_name')
    .where('plan_reference', '=', profile.plan_reference)
    .executeTakeFirst();
  return plan?.plan_name ?? NO_PLAN_NAME;
}

export async function creditSnapshot(db: Kysely<Database>, profile: Profile): Promise<CreditSnapshot> {
  const unlimited = hasUnlimited(profile);
  return {
    credits: profile.credits,
    credits_remaining: unlimited ? 'unlimited' : profile.credits,
    has_unlimited: unlimited,
    user_plan: {
      plan_reference: profile.plan_reference,
      plan_status: profile.plan_status,
      plan_name: await planName(db, profile),
    },
    subscription_status: profile.subscription_status,
  };
}

function storedAddress(profile: Profile): Address {
  const parsed = AddressSchema.safeParse(profile.address);
  return parsed.success ? parsed.data : AddressSchema.parse({});
}

/** `GET /user`: the fields both seed documents read, from one profile. */
export async function userInfo(db: Kysely<Database>, profile: Profile): Promise<UserInfo> {
  const [snapshot, key] = await Promise.all([
    creditSnapshot(db, profile),
    activeApiKeyMetadata(db, profile.id),
  ]);
  const address = storedAddress(profile);
  return {
    ...snapshot,
    userId: profile.id,
    email: profile.email,
    user_login_email: profile.email,
    user_name: profile.user_name,
    plan_ends_at: profile.plan_expires_at?.toISOString() ?? null,
    displayName: profile.user_name || profile.email,
    usertype: isAdminRole(profile.role) ? 'admin' : 'user',
    role: { name: profile.role },
    total_credits_balance: profile.credits,
    user_plan_status: profile.plan_status,
    plan: snapshot.user_plan.plan_name,
    purchase_settings: {
      scrubs_amount: profile.purchase_settings.scrubs_amount ?? 0,
      is_scrub_enabled: profile.purchase_settings.is_scrub_enabled ?? false,
    },
    address,
    billing_info: { customer_address: address },
    ...key,
    created_at: profile.created_at.toISOString(),
  };
}
