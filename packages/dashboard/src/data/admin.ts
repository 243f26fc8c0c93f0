import type { ActAsToken, AdminCreateUserParams, AdminUpdateUserParams } from '@scrub/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadOwnScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

/** Admin calls go with the admin's own credentials: an act-as token may never make them. */
const admin = async () => (await loadOwnScrub()).admin;
type AdminClient = Awaited<ReturnType<typeof admin>>;

export const adminKeys = {
  all: ['admin'] as const,
  users: (search: string, page: number) => ['admin', 'users', search, page] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  purchases: (id: string, year: number, month: number | null, perPage: number) =>
    ['admin', 'purchases', id, year, month, perPage] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
};

/** Accounts on one page. */
export const USERS_PER_PAGE = 20;

/** One page of the accounts matching the search (e-mail or name), newest first. */
export function useAdminUsers(search: string, page = 1) {
  return useQuery({
    queryKey: adminKeys.users(search, page),
    queryFn: async () => {
      const answer = await (await admin()).users.list({
        page,
        limit: USERS_PER_PAGE,
        ...(search ? { search } : {}),
      });
      return { users: answer.users, total: answer.total_users_count, totalPages: answer.total_pages };
    },
    // The page shown stays up while the next one loads.
    placeholderData: (previous) => previous,
  });
}

export function useAdminUser(id: string | null) {
  return useQuery({
    queryKey: adminKeys.user(id ?? ''),
    queryFn: async () => (await admin()).users.get(id ?? ''),
    enabled: id !== null,
  });
}

/** One account's purchases in a year (and month), `perPage` of them. */
export function useAdminPurchases(userId: string, year: number, month: number | null, perPage: number) {
  return useQuery({
    queryKey: adminKeys.purchases(userId, year, month, perPage),
    queryFn: async () =>
      (await admin()).users.purchases(userId, { year, per_page: perPage, ...(month ? { month } : {}) }),
  });
}

/** The audit log, 20 entries a page, newest first. */
export function useAuditLog(page: number) {
  return useQuery({
    queryKey: adminKeys.audit(page),
    queryFn: async () => {
      const result = await (await admin()).audit.list({ page, limit: 20 });
      return { entries: result.entries, totalPages: result.total_pages };
    },
  });
}

/**
 * A change to accounts: made with the admin's own client, then every admin answer is read again
 * before the screen's own `onSuccess` runs.
 */
function useAccountChange<Input, Output>(
  change: (admin: AdminClient, input: Input) => Promise<Output>,
  callbacks: Callbacks<Output>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => change(await admin(), input),
    onSuccess: async (output) => {
      await client.invalidateQueries({ queryKey: adminKeys.all });
      await callbacks.onSuccess?.(output);
    },
    onError: callbacks.onError,
  });
}

export const useCreateAccount = (callbacks: Callbacks<unknown> = {}) =>
  useAccountChange((admin, input: AdminCreateUserParams) => admin.users.create(input), callbacks);

export const useUpdateAccount = (userId: string, callbacks: Callbacks<{ message: string }> = {}) =>
  useAccountChange((admin, input: AdminUpdateUserParams) => admin.users.update(userId, input), callbacks);

/** Disables (the screens' Delete) or enables an account again. */
export const useSetAccountEnabled = (callbacks: Callbacks<{ message: string }> = {}) =>
  useAccountChange(
    (admin, { userId, enabled }: { userId: string; enabled: boolean }) =>
      enabled ? admin.users.enable(userId) : admin.users.disable(userId),
    callbacks,
  );

export const useRefund = (userId: string, callbacks: Callbacks<{ message: string }> = {}) =>
  useAccountChange(
    (admin, input: { purchaseId: string; amount: number; reason: string }) =>
      admin.users.refund(userId, input.purchaseId, { amount: input.amount, reason: input.reason }),
    callbacks,
  );

export const useAdjustCredits = (userId: string, callbacks: Callbacks<{ message: string }> = {}) =>
  useAccountChange(
    (admin, input: { amount: number; reason: string }) =>
      admin.users.adjustCredits(userId, input.amount, input.reason),
    callbacks,
  );

export const useResetPassword = (callbacks: Callbacks<{ message: string }> = {}) =>
  useAccountChange(
    (admin, input: { userId: string; password: string; confirm: string }) =>
      admin.users.resetPassword(input.userId, input.password, input.confirm),
    callbacks,
  );

/** An act-as token for the account: the screen starts acting with it (which reloads the page). */
export function useActAs(callbacks: Callbacks<ActAsToken>) {
  return useMutation({
    mutationFn: async (userId: string) => (await admin()).users.actAs(userId),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
