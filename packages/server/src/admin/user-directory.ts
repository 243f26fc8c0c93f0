import type { AdminUserInfo, ManagedUser, RoleName } from '@scrub/contract';
import { type Kysely, sql } from 'kysely';
import { type Profile, userInfo } from '../account/profiles.js';
import type { ClientScope } from '../auth/access.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type AgencyLink = ManagedUser['agency'];

/** The Agency accounts of these ids, by id: the Users list's Agency column. */
async function agencyLinks(db: Kysely<Database>, ids: (string | null)[]): Promise<Map<string, AgencyLink>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('profiles')
    .select(['id as user_id', 'email'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row]));
}

/** The account as the Users list shows it, with its Agency (an Agency's client), if any. */
export async function managedUser(db: Kysely<Database>, profile: Profile): Promise<ManagedUser> {
  const agencies = await agencyLinks(db, [profile.agency_id]);
  return managedUserOf(profile, agencies.get(profile.agency_id ?? '') ?? null);
}

function managedUserOf(profile: Profile, agency: AgencyLink): ManagedUser {
  return {
    user_id: profile.id,
    full_name: profile.user_name,
    email: profile.email,
    role_name: profile.role,
    avatar: null,
    credits: profile.credits,
    status: profile.disabled_at ? 'disabled' : 'active',
    created_at: profile.created_at.toISOString(),
    last_sign_in_at: profile.last_sign_in_at?.toISOString() ?? null,
    agency,
  };
}

/**
 * Every account in the caller's scope (an Agency's: its clients), newest first, searched by part
 * of the e-mail or the name and filtered by role.
 */
export async function listUsers(
  db: Kysely<Database>,
  query: { page: number; limit: number; search?: string | undefined; role?: RoleName | undefined },
  scope: ClientScope,
) {
  // A deleted account (its e-mail a tombstone) is no user to manage: its ledger stays in the audit log.
  let base = db.selectFrom('profiles').where('deleted_at', 'is', null);
  if (scope) base = base.where('agency_id', '=', scope.agencyId);
  if (query.search) {
    const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
    base = base.where((eb) =>
      eb.or([
        eb(sql<string>`lower(email)`, 'like', pattern),
        eb(sql<string>`lower(user_name)`, 'like', pattern),
      ]),
    );
  }
  if (query.role) base = base.where('role', '=', query.role);
  const { count } = await base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const total = Number(count);
  const agencies = await agencyLinks(
    db,
    rows.map((row) => row.agency_id),
  );
  return {
    users: rows.map((row) => managedUserOf(row, agencies.get(row.agency_id ?? '') ?? null)),
    page: query.page,
    total_pages: Math.max(1, Math.ceil(total / query.limit)),
    total_users_count: total,
  };
}

/**
 * An account in the caller's scope by its id or its e-mail address (any case; the newest if
 * re-created); 404 otherwise. An account outside an Agency's scope gets the same 404 as one that
 * does not exist, so an Agency cannot learn which addresses have accounts.
 */
export async function findAccount(
  db: Kysely<Database>,
  idOrEmail: string,
  scope: ClientScope,
): Promise<Profile> {
  const byId = UUID.test(idOrEmail);
  const profile = await db
    .selectFrom('profiles')
    .selectAll()
    .$if(byId, (q) => q.where('id', '=', idOrEmail))
    .$if(!byId, (q) => q.where(sql<string>`lower(email)`, '=', idOrEmail.toLowerCase()))
    .$if(scope !== null, (q) => q.where('agency_id', '=', scope?.agencyId ?? null))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!profile) throw new ApiError('not_found', `No account ${byId ? 'with id' : 'for'} ${idOrEmail}.`);
  return profile;
}

/** The Agency account an admin links a User account to, by id or e-mail; 400 when it is not an Agency. */
export async function findAgency(db: Kysely<Database>, idOrEmail: string): Promise<Profile> {
  const agency = await findAccount(db, idOrEmail, null).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  });
  if (agency?.role !== 'Agency') {
    throw new ApiError('validation_failed', `agency: ${idOrEmail} is not an Agency account.`, {
      issues: [{ location: 'body', path: 'agency', message: `${idOrEmail} is not an Agency account` }],
    });
  }
  return agency;
}

export async function adminUserInfo(db: Kysely<Database>, profile: Profile): Promise<AdminUserInfo> {
  const agency = profile.agency_id
    ? await db
        .selectFrom('profiles')
        .select(['id as user_id', 'email'])
        .where('id', '=', profile.agency_id)
        .executeTakeFirst()
    : undefined;
  return {
    ...(await userInfo(db, profile)),
    status: profile.disabled_at ? 'disabled' : 'active',
    disabled_at: profile.disabled_at?.toISOString() ?? null,
    last_sign_in_at: profile.last_sign_in_at?.toISOString() ?? null,
    agency: agency ?? null,
  };
}
