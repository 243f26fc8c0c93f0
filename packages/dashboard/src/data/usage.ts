import type { UsageParams } from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

/** Client Performance (the SDK's `usage` namespace; wire paths /usage and /usage.csv). */
const usage = async () => (await loadScrub()).usage;

export const usageKeys = {
  all: ['usage'] as const,
  report: (params: UsageParams) => ['usage', 'report', params] as const,
};

/** The figures for a range, by day or week; the last answer stays shown while the next loads. */
export function useUsage(params: UsageParams) {
  return useQuery({
    queryKey: usageKeys.report(params),
    queryFn: async () => (await usage()).get(params),
    placeholderData: keepPreviousData,
  });
}

/** The same figures as a CSV file's bytes. */
export function useExportUsage(callbacks: Callbacks<Blob> = {}) {
  return useMutation({
    mutationFn: async (params: UsageParams) => new Response(await (await usage()).export(params)).blob(),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
