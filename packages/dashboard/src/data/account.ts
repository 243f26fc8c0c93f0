import type { AccountLists, PlanStatus, Scrub, UpdateUser, UserInfo } from '@scrub/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadOwnScrub, loadScrub } from '../api/load-scrub';
import { queryClient } from '../api/query-client';
import { useSession } from '../auth/use-session';
import type { Callbacks } from './callbacks';
import { subscriptionKeys } from './subscriptions';

/**
 * The caller's own account (`GET /user`) and its credit balance (`GET /credits`): the SDK's
 * `account` namespace. Loaded through `loadScrub`, since the shell shows the balance.
 */
export const accountKeys = {
  account: ['user'] as const,
  credits: ['credits'] as const,
  ownRole: (userId: string | undefined) => ['own-role', userId] as const,
};

export function useAccount() {
  return useQuery({ queryKey: accountKeys.account, queryFn: async () => (await loadScrub()).account.get() });
}

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
    queryKey: accountKeys.credits,
    queryFn: async () => (await loadScrub()).account.credits(),
    enabled: Boolean(session.data),
    refetchInterval: CREDIT_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
}

/**
 * The signed-in person's own role, as the service decides it (`GET /user`): the ID token's groups
 * do not say everything (an address in SCRUB_ADMIN_EMAILS is a Super Admin with no group). Asked
 * with the person's own credentials, so acting as a user does not change it.
 */
export function useOwnRole() {
  const session = useSession();
  const userId = session.data?.userId;
  return useQuery({
    queryKey: accountKeys.ownRole(userId),
    queryFn: async () => (await (await loadOwnScrub()).account.get()).role.name as string,
    enabled: Boolean(userId),
    staleTime: 5 * 60_000,
  });
}

/** Saves the profile; the account query takes the answer as it is. */
export function useUpdateProfile(callbacks: Callbacks<UserInfo> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (changes: UpdateUser) => (await loadScrub()).account.update(changes),
    onSuccess: async (updated) => {
      client.setQueryData(accountKeys.account, updated);
      await callbacks.onSuccess?.(updated);
    },
    onError: callbacks.onError,
  });
}

/**
 * Pauses or resumes the account. With a monthly subscription its billing moves with it (PATCH
 * /subscription, which sets the plan status too); without one, only the plan status changes.
 */
export async function setAccountStatus(status: PlanStatus): Promise<void> {
  const scrub = await loadScrub();
  const subscription = await scrub.subscriptions.get();
  if (subscription && subscription.status !== 'canceled') {
    if (status === 'paused') await scrub.subscriptions.pause();
    else await scrub.subscriptions.resume();
  } else {
    await scrub.account.setPlanStatus(status);
  }
  for (const key of [accountKeys.credits, accountKeys.account, subscriptionKeys.subscription]) {
    await queryClient.invalidateQueries({ queryKey: key });
  }
}

/** Operator lists (known litigators...): the account's default and every list there is (`GET /user/lists`). */
export function useAccountLists() {
  return useQuery({
    queryKey: [...accountKeys.account, 'lists'] as const,
    queryFn: async () => (await loadScrub()).account.lists(),
  });
}

/** Sets the account's default operator lists; the lists query takes the answer as it is. */
export function useSetAccountLists(callbacks: Callbacks<AccountLists> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (lists: string[]) => (await loadScrub()).account.setLists(lists),
    onSuccess: async (updated) => {
      client.setQueryData([...accountKeys.account, 'lists'], updated);
      await callbacks.onSuccess?.(updated);
    },
    onError: callbacks.onError,
  });
}

/** Everything kept about the account, as one JSON document (`GET /account/export`). */
export function useExportAccount(callbacks: Callbacks<Awaited<ReturnType<Scrub['account']['export']>>> = {}) {
  return useMutation({
    mutationFn: async () => (await loadScrub()).account.export(),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/** Deletes the account for good, its e-mail address typed again (`DELETE /account`). */
export function useDeleteAccount(callbacks: Callbacks<{ message: string }> = {}) {
  return useMutation({
    mutationFn: async (confirmEmail: string) => (await loadScrub()).account.delete(confirmEmail),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
