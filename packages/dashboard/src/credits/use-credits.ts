import { useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import { queryKeys } from '../api/query-keys';
import { useSession } from '../auth/use-session';

/** The seeds' polling period for the balance. */
export const CREDIT_POLL_MS = 30_000;

/**
 * The credit balance: fetched at start, every 30 s while the tab is visible (TanStack Query pauses
 * the interval while hidden), on window focus and when the tab becomes visible again. One query
 * shared by every component, so polls never overlap: a refetch asked for while one is in flight
 * joins it.
 */
export function useCredits() {
  const session = useSession();
  return useQuery({
    queryKey: queryKeys.credits,
    queryFn: async () => (await loadScrub()).credits.get(),
    enabled: Boolean(session.data),
    refetchInterval: CREDIT_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
}
