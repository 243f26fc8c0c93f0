import { ApiError } from './api-error.js';

/** Errors of a disk that is full (or over quota) or mounted read-only: the store, not the request, is at fault. */
const UNAVAILABLE = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

/** How long a client is asked to wait before trying again. */
export const STORAGE_RETRY_AFTER_SECONDS = 60;

/** Whether `error`, or an error it was caused by, says the file store cannot take writes now. */
export function isStorageUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code && UNAVAILABLE.has(code)) return true;
    current = current.cause;
  }
  return false;
}

export function storageUnavailable(): ApiError {
  return new ApiError(
    'storage_unavailable',
    `The file store cannot take files right now (the disk is full or read-only), so nothing was stored and nothing was charged. Try again in ${STORAGE_RETRY_AFTER_SECONDS} seconds.`,
    { headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) } },
  );
}
