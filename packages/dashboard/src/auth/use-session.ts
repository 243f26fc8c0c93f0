import { useQuery } from '@tanstack/react-query';
import { loadOwnScrub, loadScrub } from '../api/load-scrub';
import { queryKeys } from '../api/query-keys';

/**
 * The signed-in person (from the ID token, refreshed when it has expired), or null. Reading it makes
 * no request while the token is fresh, so every screen may ask.
 */
export function useSession() {
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: async () => (await loadScrub()).auth.session(),
    staleTime: 60_000,
  });
}

/** Staff roles see User Management in the sidebar (seed 1, section 6). */
export const STAFF_ROLES = ['Agency', 'Admin', 'Super Admin'];

/** Admin screens and the ADMIN link: Admin and Super Admin (the service refuses everyone else). */
export const ADMIN_ROLES = ['Admin', 'Super Admin'];

/**
 * The signed-in person's own role, as the service decides it (`GET /user`): the ID token's groups
 * do not say everything (an address in SCRUB_ADMIN_EMAILS is a Super Admin with no group). Asked
 * with the person's own credentials, so acting as a user does not change it.
 */
export function useOwnRole() {
  const session = useSession();
  const userId = session.data?.userId;
  return useQuery({
    queryKey: ['own-role', userId],
    queryFn: async () => (await (await loadOwnScrub()).user.get()).role.name as string,
    enabled: Boolean(userId),
    staleTime: 5 * 60_000,
  });
}

export const hasRole = (role: string | undefined, roles: readonly string[]) =>
  role !== undefined && roles.includes(role);
