import { useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import { mayBeSignedIn } from './stored-session-hint';

export const sessionKey = ['session'] as const;

/**
 * The signed-in person (from the ID token, refreshed when it has expired), or null. Reading it makes
 * no request while the token is fresh, so every screen may ask. With no sign-in stored, null at
 * once, without loading the SDK (stored-session-hint.ts).
 */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: async () => (mayBeSignedIn() ? (await loadScrub()).auth.session() : null),
    staleTime: 60_000,
  });
}

/** Staff roles see User Management in the sidebar (seed 1, section 6). */
export const STAFF_ROLES = ['Agency', 'Admin', 'Super Admin'];

/** Admin screens and the ADMIN link: Admin and Super Admin (the service refuses everyone else). */
export const ADMIN_ROLES = ['Admin', 'Super Admin'];

export const hasRole = (role: string | undefined, roles: readonly string[]) =>
  role !== undefined && roles.includes(role);
