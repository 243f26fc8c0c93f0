import type { CheckExportParams, CheckListParams } from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

/** The phone log (the SDK's `checks` namespace; wire paths /checks and /checks.csv). */
const checks = async () => (await loadScrub()).checks;

export const checkKeys = {
  all: ['checks'] as const,
  page: (params: CheckListParams) => ['checks', 'page', params] as const,
};

/** One page of the log, newest first; the last page stays shown while the next loads. */
export function useCheckLog(params: CheckListParams) {
  return useQuery({
    queryKey: checkKeys.page(params),
    queryFn: async () => (await (await checks()).list(params)).toJSON(),
    placeholderData: keepPreviousData,
  });
}

/** Every check the filters keep, as a CSV file's bytes. */
export function useExportCheckLog(callbacks: Callbacks<Blob> = {}) {
  return useMutation({
    mutationFn: async (params: CheckExportParams) =>
      new Response(await (await checks()).export(params)).blob(),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
