const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** A server asking for a longer wait than this is better answered with our own backoff than a stall. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Timeouts, lock conflicts, rate limits and server faults may pass on a second try. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The wait a response asks for, from `retry-after-ms` or `Retry-After` (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds)) return milliseconds;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * How long to wait before retry number `retriesDone + 1`: what the server asked for when that is
 * reasonable, otherwise capped exponential backoff with up to 25% jitter so clients that failed
 * together do not come back together.
 */
export function retryDelayMs(retriesDone: number, headers?: Headers): number {
  const asked = headers && retryAfterMs(headers);
  if (asked !== undefined && asked >= 0 && asked <= MAX_RETRY_AFTER_MS) return asked;
  const backoff = Math.min(INITIAL_DELAY_MS * 2 ** retriesDone, MAX_DELAY_MS);
  return backoff * (1 - Math.random() * 0.25);
}
