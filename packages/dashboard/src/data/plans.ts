import { useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';

export const plansKeys = {
  plans: ['plans'] as const,
};

/** The catalogue: every plan on sale. It changes seldom, so it is kept five minutes. */
export function usePlans() {
  return useQuery({
    queryKey: plansKeys.plans,
    queryFn: async () => (await loadScrub()).plans.list(),
    staleTime: 5 * 60_000,
  });
}
