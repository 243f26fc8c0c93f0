import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.js';
import { isAdminRole } from '../auth/roles.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';

/** An account whose usage is counted. */
export interface UsageOwner {
  id: string;
  email: string;
  name: string;
  role: string;
}

const notFound = () => new ApiError('not_found', 'No account with this id is yours to read.');

/**
 * The accounts a usage view counts: the caller's own (or `accountId`'s), and an Agency's clients
 * with it. Another account is read by an admin (any) or an Agency (its own clients only); a User
 * is refused, an account the caller may not read is not found.
 */
export async function usageOwners(
  db: Kysely<Database>,
  principal: Principal,
  accountId: string | undefined,
): Promise<UsageOwner[]> {
  const id = accountId ?? principal.profileId;
  if (id !== principal.profileId && principal.role === 'User')
    throw new ApiError(
      'forbidden',
      "Only an Agency (its clients') or an admin reads another account's usage.",
    );
  const columns = ['id', 'email', 'user_name as name', 'role', 'agency_id'] as const;
  const account = await db.selectFrom('profiles').select(columns).where('id', '=', id).executeTakeFirst();
  if (!account) throw notFound();
  const mayRead =
    id === principal.profileId || isAdminRole(principal.role) || account.agency_id === principal.profileId;
  if (!mayRead) throw notFound();
  const clients =
    account.role === 'Agency'
      ? await db.selectFrom('profiles').select(columns).where('agency_id', '=', id).orderBy('email').execute()
      : [];
  return [account, ...clients].map(({ id, email, name, role }) => ({ id, email, name, role }));
}
