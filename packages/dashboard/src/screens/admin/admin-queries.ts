import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ownScrub } from '../../api/scrub-client';

/** Admin calls go with the admin's own credentials: an act-as token may never make them. */
export const adminScrub = ownScrub;

export const adminKeys = {
  all: ['admin'] as const,
  users: (search: string) => ['admin', 'users', search] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  purchases: (id: string, year: number, month: number | null, perPage: number) =>
    ['admin', 'purchases', id, year, month, perPage] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};

/** Up to 20 accounts matching the search (e-mail or name), newest first. */
export function useAdminUsers(search: string) {
  return useQuery({
    queryKey: adminKeys.users(search),
    queryFn: async () => {
      const page = await adminScrub.admin.users.list(search ? { search, limit: 20 } : { limit: 20 });
      return { users: page.users, total: page.total_users_count };
    },
  });
}

export function useAdminUser(id: string | null) {
  return useQuery({
    queryKey: adminKeys.user(id ?? ''),
    queryFn: () => adminScrub.admin.users.get(id ?? ''),
    enabled: id !== null,
  });
}

/** After a change to accounts: every admin answer is read again. */
export function useRefreshAdmin() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminKeys.all });
}
