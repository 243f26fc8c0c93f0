import { type DncChange, type DncImportMode, type DncListParams, MAX_INLINE_CSV_CHARS } from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

/** The account's own suppression list (wire path /dnc; the SDK's `suppression` namespace). */
const suppression = async () => (await loadScrub()).suppression;

export const suppressionKeys = {
  all: ['dnc'] as const,
  summary: ['dnc', 'summary'] as const,
  numbers: (params: DncListParams) => ['dnc', 'numbers', params] as const,
};

/** How many numbers the list holds (and how many the operator imported for the account). */
export function useSuppressionSummary() {
  return useQuery({ queryKey: suppressionKeys.summary, queryFn: async () => (await suppression()).get() });
}

/** One page of the list's numbers; the last page stays shown while the next loads. */
export function useSuppressedNumbers(params: DncListParams) {
  return useQuery({
    queryKey: suppressionKeys.numbers(params),
    queryFn: async () => (await (await suppression()).list(params)).toJSON(),
    placeholderData: keepPreviousData,
  });
}

/** A change to the list: the summary and every page are read again. */
function useSuppressionChange<Input>(
  change: (input: Input) => Promise<DncChange>,
  callbacks: Callbacks<DncChange>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async (result) => {
      await client.invalidateQueries({ queryKey: suppressionKeys.all });
      await callbacks.onSuccess?.(result);
    },
    onError: callbacks.onError,
  });
}

export const useAddSuppressed = (callbacks: Callbacks<DncChange> = {}) =>
  useSuppressionChange(async (numbers: string[]) => (await suppression()).add(numbers), callbacks);

export const useRemoveSuppressed = (callbacks: Callbacks<DncChange> = {}) =>
  useSuppressionChange(async (numbers: string[]) => (await suppression()).remove(numbers), callbacks);

/**
 * A CSV of numbers, merged into the list or replacing it; the phone column by header or position.
 * A file over 1 MiB goes by upload, as bulk files do.
 */
export const useImportSuppressed = (callbacks: Callbacks<DncChange> = {}) =>
  useSuppressionChange(
    async ({ file, mode, phoneCol }: { file: File; mode: DncImportMode; phoneCol: string | number }) => {
      const params = { mode, phone_col: phoneCol };
      if (file.size > MAX_INLINE_CSV_CHARS) return (await suppression()).importFile(file, params);
      return (await suppression()).import(file, params);
    },
    callbacks,
  );

/** The whole list as a CSV file's bytes. */
export function useExportSuppressed(callbacks: Callbacks<Blob> = {}) {
  return useMutation({
    mutationFn: async () => new Response(await (await suppression()).export()).blob(),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
