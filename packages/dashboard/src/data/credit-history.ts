import type { CreditHistoryExportParams, CreditHistoryParams } from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

/** The credit history (the SDK's `credits` namespace; wire paths /credits/history and /credits/history.csv). */
const credits = async () => (await loadScrub()).credits;

export const creditHistoryKeys = {
  all: ['credit-history'] as const,
  page: (params: CreditHistoryParams) => ['credit-history', 'page', params] as const,
};

/** One page of the history, newest first; the last page stays shown while the next loads. */
export function useCreditHistory(params: CreditHistoryParams) {
  return useQuery({
    queryKey: creditHistoryKeys.page(params),
    queryFn: async () => (await (await credits()).history(params)).toJSON(),
    placeholderData: keepPreviousData,
  });
}

/** The history (of one month) as a CSV file's bytes. */
export function useExportCreditHistory(callbacks: Callbacks<Blob> = {}) {
  return useMutation({
    mutationFn: async (params: CreditHistoryExportParams) =>
      new Response(await (await credits()).exportHistory(params)).blob(),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
