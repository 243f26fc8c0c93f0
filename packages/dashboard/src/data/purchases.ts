import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';

export interface PurchaseHistoryParams {
  year: number;
  month: number | null;
  perPage: number;
}

export const purchasesKeys = {
  all: ['purchases'] as const,
  history: (params: PurchaseHistoryParams) => ['purchases', params] as const,
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
