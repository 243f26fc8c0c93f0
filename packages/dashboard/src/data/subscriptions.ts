import { useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';

/** The monthly plan (the SDK's `subscriptions` namespace). */
export const subscriptionKeys = {
  subscription: ['subscription'] as const,
};

export function useSubscription() {
  return useQuery({
    queryKey: subscriptionKeys.subscription,
    queryFn: async () => (await loadScrub()).subscriptions.get(),
  });
}

/** Cancels at the end of the period; the caller refreshes what a payment change touches. */
export async function cancelSubscription(): Promise<void> {
  await (await loadScrub()).subscriptions.cancel();
}
