import type { AutoTopUpSettings, UpdateAutoTopUp } from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

export interface PurchaseHistoryParams {
  year: number;
  month: number | null;
  perPage: number;
}

export const purchasesKeys = {
  all: ['purchases'] as const,
  history: (params: PurchaseHistoryParams) => ['purchases', params] as const,
  autoTopUp: ['auto-top-up'] as const,
};

/** The account's purchases in a year (and month), `perPage` of them; the last answer stays shown meanwhile. */
export function usePurchaseHistory(params: PurchaseHistoryParams) {
  const { year, month, perPage } = params;
  return useQuery({
    queryKey: purchasesKeys.history(params),
    queryFn: async () =>
      (await loadScrub()).purchases.list({ year, ...(month ? { month } : {}), per_page: perPage }),
    placeholderData: keepPreviousData,
  });
}

/** Auto top-up and the low-balance e-mail (`GET /payment/auto-top-up`). */
export function useAutoTopUp() {
  return useQuery({
    queryKey: purchasesKeys.autoTopUp,
    queryFn: async () => (await loadScrub()).purchases.getAutoTopUp(),
  });
}

/** Saves them; the query takes the answer as it is. */
export function useSetAutoTopUp(callbacks: Callbacks<AutoTopUpSettings> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: UpdateAutoTopUp) => (await loadScrub()).purchases.setAutoTopUp(change),
    onSuccess: async (settings) => {
      client.setQueryData(purchasesKeys.autoTopUp, settings);
      await callbacks.onSuccess?.(settings);
    },
    onError: callbacks.onError,
  });
}
