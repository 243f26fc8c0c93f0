import { routes, type VerifyResult } from '@scrub/contract';
import type { RequestOptions, Scrub } from '../client.js';
import {
  APIConnectionError,
  APIUserAbortError,
  AuthError,
  AuthenticationError,
  InsufficientCreditsError,
  PermissionDeniedError,
  RateLimitError,
  ScrubError,
} from '../errors.js';

/** One check's options: `proof: true` answers with a signed statement of the answer (`proof`), at no extra charge. */
export interface VerifyOptions extends RequestOptions {
  proof?: boolean;
}

/** Request options apply to each check; `signal` stops the whole run. */
export interface VerifyManyOptions extends RequestOptions {
  /** Checks in flight at once. Default 8. */
  concurrency?: number;
}

/** One number of a `verify.many()` run: its answer, or why this number could not be checked. */
export type VerifyOutcome =
  | { input: string; result: VerifyResult; error?: undefined }
  | { input: string; error: ScrubError; result?: undefined };

/**
 * `scrub.verify(phone)` checks one number; `scrub.verify.many(phones)` checks a stream of them.
 * A function with a method rather than a resource class, so the common call reads as a verb.
 */
export interface Verify {
  /**
   * Line type and do-not-call status of one number. Input that is not a phone number is not an
   * error: it is answered with `line_type: 'invalid'` and an `invalid_reason`, and costs nothing.
   */
  (phone: string, options?: VerifyOptions): Promise<VerifyResult>;
  /**
   * Checks many numbers, `concurrency` at a time, yielding one outcome per number in input order.
   * Input is read only as checks finish, so a huge stream never sits in memory.
   *
   * A check refused for the rate limit (429) waits as long as the server asks (`Retry-After`) and
   * is sent again, as often as it takes: a long list slows down to the account's limit instead
   * of failing.
   *
   * An error about one number is yielded as that number's outcome and the run goes on. An error
   * every further check would hit as well stops the run: not enough credits (402), refused
   * credentials (401, or a session that cannot be refreshed), forbidden (403: a paused plan), or
   * an API that cannot be reached after the retries. No new check starts, the checks in flight
   * finish and are yielded (answers already paid for are not lost), numbers refused for such a
   * reason are not yielded, and then the iterator throws that error. Leaving the loop early
   * (`break`, `throw`) cancels the checks in flight; so does aborting `options.signal`, after
   * which the iterator throws `APIUserAbortError`.
   */
  many(
    phones: Iterable<string> | AsyncIterable<string>,
    options?: VerifyManyOptions,
  ): AsyncGenerator<VerifyOutcome, void, undefined>;
}

const DEFAULT_CONCURRENCY = 8;

function stopsTheRun(error: ScrubError): boolean {
  return (
    error instanceof InsufficientCreditsError ||
    error instanceof AuthenticationError ||
    error instanceof PermissionDeniedError ||
    error instanceof AuthError ||
    error instanceof APIConnectionError
  );
}

function inputIterator(phones: Iterable<string> | AsyncIterable<string>) {
  // A string is iterable too: its characters would each be checked.
  if (typeof phones === 'string') {
    throw new TypeError('verify.many() takes a list or stream of numbers; check one with verify()');
  }
  return Symbol.asyncIterator in phones ? phones[Symbol.asyncIterator]() : phones[Symbol.iterator]();
}

type Check = (phone: string, options?: RequestOptions) => Promise<VerifyResult>;

/** Without a Retry-After, a refused check waits this long before it goes again. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 1000;

function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A check that is never given up for the rate limit: it waits its turn and goes again. */
async function pacedCheck(check: Check, phone: string, options: RequestOptions & { signal: AbortSignal }) {
  for (;;) {
    try {
      return await check(phone, options);
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      const asked = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
      await wait(asked ?? DEFAULT_RATE_LIMIT_WAIT_MS, options.signal);
    }
  }
}

/** A check that never rejects, so a failure waiting its turn in the window is never unhandled. */
type Settled = { input: string; result: VerifyResult } | { input: string; error: unknown };

async function* verifyMany(
  check: Check,
  phones: Iterable<string> | AsyncIterable<string>,
  { concurrency = DEFAULT_CONCURRENCY, signal, ...requestOptions }: VerifyManyOptions = {},
): AsyncGenerator<VerifyOutcome, void, undefined> {
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number of at least 1, not ${concurrency}`);
  }
  const input = inputIterator(phones);
  // Cancels the checks in flight when the run ends early, whoever ends it.
  const cancel = new AbortController();
  const checkSignal = signal ? AbortSignal.any([signal, cancel.signal]) : cancel.signal;
  // Started checks in input order. A window of `concurrency`: a slot frees when the oldest check
  // is yielded, which keeps the order and bounds memory without buffering finished answers.
  const window: Promise<Settled>[] = [];
  let inputDone = false;
  let stoppedBy: ScrubError | undefined;

  try {
    for (;;) {
      if (signal?.aborted) throw new APIUserAbortError();
      while (!stoppedBy && !inputDone && window.length < concurrency) {
        const next = await input.next();
        if (next.done) {
          inputDone = true;
          break;
        }
        const phone = next.value;
        window.push(
          pacedCheck(check, phone, { ...requestOptions, signal: checkSignal }).then(
            (result) => ({ input: phone, result }),
            (error: unknown) => ({ input: phone, error }),
          ),
        );
      }
      const oldest = window.shift();
      if (!oldest) break;
      const settled = await oldest;
      if (signal?.aborted) throw new APIUserAbortError();
      if ('result' in settled) {
        yield settled;
        continue;
      }
      const { error } = settled;
      // Anything but a ScrubError is a fault in this process, not an answer: it ends the run.
      if (!(error instanceof ScrubError)) throw error;
      if (stopsTheRun(error)) stoppedBy ??= error;
      else yield { input: settled.input, error };
    }
  } finally {
    cancel.abort();
    // Cancelled checks settle at once; waiting for them means no request outlives the run.
    await Promise.all(window);
    if (!inputDone) await input.return?.();
  }
  if (stoppedBy) throw stoppedBy;
}

/** Builds `scrub.verify`: the call itself, with `many` attached. */
export function createVerify(client: Scrub): Verify {
  const verify: Check = (phone, { proof, ...options }: VerifyOptions = {}) =>
    client.request(routes.verify, { p: phone, ...(proof ? { proof: '1' as const } : {}) }, options);
  return Object.assign(verify, {
    many: (phones: Iterable<string> | AsyncIterable<string>, options?: VerifyManyOptions) =>
      verifyMany(verify, phones, options),
  });
}
