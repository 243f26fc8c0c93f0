import type { FileListParams, FileView, ResultRowsParams, Scrub } from '@scrub/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import { queryClient } from '../api/query-client';
import type { Callbacks } from './callbacks';

const files = async () => (await loadScrub()).files;

/** The result's filters and the addresses to mail it to. */
type EmailOptions = NonNullable<Parameters<Scrub['files']['email']>[1]>;

export const filesKeys = {
  all: ['files'] as const,
  list: (params: FileListParams) => ['files', params] as const,
  file: (reference: string) => ['file', reference] as const,
};

/** While a job on the page is still running, the page is read again this often. */
const RUNNING_REFRESH_MS = 3000;

const running = (list: FileView[] | undefined) =>
  list?.some((file) => file.status === 'processing' || file.status === 'pending') ?? false;

/** One page of the account's files; followed every 3 s while one of them is still running. */
export function useFiles(params: FileListParams) {
  return useQuery({
    queryKey: filesKeys.list(params),
    queryFn: async () => (await (await files()).list(params)).toJSON(),
    placeholderData: keepPreviousData,
    // A job queued before a reload is found here again, and followed until it ends.
    refetchInterval: (query) => (running(query.state.data?.files) ? RUNNING_REFRESH_MS : false),
  });
}

/** One file by its reference (public: the reference is the credential). */
export function useFile(reference: string) {
  return useQuery({
    queryKey: filesKeys.file(reference),
    queryFn: async () => (await files()).get(reference),
    enabled: reference !== '',
  });
}

/** One file by its reference, read again every 3 s until its job has ended (the wizard's result step). */
export function useFollowedFile(reference: string) {
  return useQuery({
    queryKey: filesKeys.file(reference),
    queryFn: async () => (await files()).get(reference),
    enabled: reference !== '',
    refetchInterval: (query) =>
      running(query.state.data && [query.state.data]) ? RUNNING_REFRESH_MS : false,
  });
}

/** After a job was submitted or a file stored: every page of the list is read again. */
export function refreshFiles(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: filesKeys.all });
}

/** Mails the file's links (its result filtered as given) to the account or to the addresses. */
export function useEmailFile(fileReference: string, callbacks: Callbacks<{ message: string }> = {}) {
  return useMutation({
    mutationFn: async (options: EmailOptions) => (await files()).email(fileReference, options),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

export interface ExistingFileColumns {
  phone_col: number;
  line_type_col: number;
  dnc_col?: number;
}

/** A file scrubbed elsewhere, stored as Direct DB with nothing charged; the list is read again. */
export function useUploadExisting(callbacks: Callbacks<FileView> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ file, columns }: { file: File; columns: ExistingFileColumns }) =>
      (await files()).uploadExisting(file, { file_name: file.name, ...columns }),
    onSuccess: async (stored) => {
      await client.invalidateQueries({ queryKey: filesKeys.all });
      await callbacks.onSuccess?.(stored);
    },
    onError: callbacks.onError,
  });
}

/** Deletes the file's upload and result now; the list and the file are read again. */
export function useDeleteFile(fileReference: string, callbacks: Callbacks<FileView> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await files()).delete(fileReference),
    onSuccess: async (removed) => {
      client.setQueryData(filesKeys.file(fileReference), removed);
      await client.invalidateQueries({ queryKey: filesKeys.all });
      await callbacks.onSuccess?.(removed);
    },
    onError: callbacks.onError,
  });
}

/** One page of a result's rows, read on the service (never the whole file); the last page stays shown while the next loads. */
export function useResultRows(reference: string, params: ResultRowsParams) {
  return useQuery({
    queryKey: ['file-rows', reference, params] as const,
    queryFn: async () => (await (await files()).rows(reference, params)).toJSON(),
    enabled: reference !== '',
    placeholderData: keepPreviousData,
  });
}
