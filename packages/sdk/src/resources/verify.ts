import {
  type Lookup,
  MAX_BATCH_NUMBERS,
  routes,
  type VerifyBatchResult,
  type VerifyResult,
} from '@scrub/contract';
import type { RequestOptions, Scrub } from '../client.js';
import {
  APIConnectionError,
  APIUserAbortError,
  AuthError,
  AuthenticationError,
  BadRequestError,
  InsufficientCreditsError,
  PermissionDeniedError,
  RateLimitError,
  ScrubError,
} from '../errors.js';

/** A batch's options, each as for one check (`VerifyOptions`), for every number of the batch. */
export interface VerifyBatchOptions extends RequestOptions {
  /**
   * `'carrier'`: a live carrier lookup of each valid number (Twilio Lookup;
   * `line_type_source: 'carrier_lookup'` when it answered), charged as the service sets; a service
   * without lookups refuses it (`BadRequestError`).
   */
  lookup?: Lookup;
  /**
   * `YYYY-MM-DD`: also answer whether the number was permanently disconnected (reassigned) since
   * consent was given (`reassigned`, `reassigned_source`), at the operator's price on top of the check.
   */
  consentDate?: string;
  /**
   * Operator lists to check (`['litigators']`), answered in `lists`, instead of the account's
   * default (`scrub.account.lists()`); `[]` for none. A name nobody imported is a `BadRequestError`.
   */
  lists?: readonly string[];
}

/**
 * One check's options: `proof: true` answers with a signed statement of the answer (`proof`), at
 * no extra charge; the others as for a batch.
 */
export interface VerifyOptions extends VerifyBatchOptions {
  proof?: boolean;
  /**
   * `true`: a test of one number, as the dashboard's API page makes (`test=1`): free while the
   * account's subscription is active (a daily allowance), otherwise charged as any check.
   */
  test?: boolean;
}

/** Request options apply to each batch request; `signal` stops the whole run. */
export interface VerifyManyOptions extends VerifyBatchOptions {
  /** Batch requests (`POST /verify`) in flight at once. Default 4. */
  concurrency?: number;
  /** Numbers per batch request, 1 to 10,000. Default 1,000. */
  batchSize?: number;
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
   * Checks up to 10,000 numbers per request (`POST /verify`; a longer list is sent in requests of
   * 10,000, one after another), answered in order as single checks would be and charged the same:
   * one credit per distinct valid number not answered from the cache, in one charge per request.
   * A balance that cannot pay for a whole request refuses it (`InsufficientCreditsError`, with
   * `affordable`), and charges nothing for it; requests before it stay paid and answered.
   */
  batch(phones: readonly string[], options?: VerifyBatchOptions): Promise<VerifyBatchResult>;
  /**
   * Checks many numbers in batch requests of `batchSize` (`POST /verify`), `concurrency` requests
   * at a time, yielding one outcome per number in input order. Input is read only as batches
   * finish, so a huge stream never sits in memory; a batch is sent once `batchSize` numbers are
   * read, or the input ends.
   *
   * A batch refused for the rate limit (429) waits as long as the server asks (`Retry-After`) and
   * is sent again, as often as it takes: a long list slows down to the account's limit instead
   * of failing.
   *
   * A batch refused as bad input (a number too long to be one, 400) is checked number by number
   * (`GET /verify`), and the error about one number is yielded as that number's outcome; the run
   * goes on. An error
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

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_BATCH_SIZE = 1_000;

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

type Check = (phone: string, options?: VerifyOptions) => Promise<VerifyResult>;
type Batch = (phones: readonly string[], options?: VerifyBatchOptions) => Promise<VerifyBatchResult>;

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

/** A request that is never given up for the rate limit: it waits its turn and goes again. */
async function paced<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof RateLimitError)) throw error;
      const asked = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
      await wait(asked ?? DEFAULT_RATE_LIMIT_WAIT_MS, signal);
    }
  }
}

/** A batch that never rejects, so a failure waiting its turn in the window is never unhandled. */
type Settled =
  | { inputs: string[]; results: (VerifyResult | ScrubError)[] }
  | { inputs: string[]; error: unknown };

/**
 * A batch, and if the server refuses it as bad input (a number too long to be one), each of its
 * numbers on its own: one bad number costs the others nothing, and is yielded with its own error.
 */
async function batchOrEach(
  batch: Batch,
  check: Check,
  inputs: string[],
  options: VerifyBatchOptions & { signal: AbortSignal },
): Promise<(VerifyResult | ScrubError)[]> {
  try {
    const { results } = await paced(() => batch(inputs, options), options.signal);
    return results.map(({ input: _, ...result }) => result);
  } catch (error) {
    if (!(error instanceof BadRequestError) || inputs.length === 1) throw error;
    const answers: (VerifyResult | ScrubError)[] = [];
    for (const phone of inputs) {
      try {
        answers.push(await paced(() => check(phone, options), options.signal));
      } catch (refused) {
        if (!(refused instanceof BadRequestError)) throw refused;
        answers.push(refused);
      }
    }
    return answers;
  }
}

async function* verifyMany(
  batch: Batch,
  check: Check,
  phones: Iterable<string> | AsyncIterable<string>,
  {
    concurrency = DEFAULT_CONCURRENCY,
    batchSize = DEFAULT_BATCH_SIZE,
    signal,
    ...requestOptions
  }: VerifyManyOptions = {},
): AsyncGenerator<VerifyOutcome, void, undefined> {
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a whole number of at least 1, not ${concurrency}`);
  }
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_NUMBERS) {
    throw new RangeError(`batchSize must be a whole number from 1 to ${MAX_BATCH_NUMBERS}, not ${batchSize}`);
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
        const inputs: string[] = [];
        while (inputs.length < batchSize) {
          const next = await input.next();
          if (next.done) {
            inputDone = true;
            break;
          }
          inputs.push(next.value);
        }
        if (inputs.length === 0) break;
        window.push(
          batchOrEach(batch, check, inputs, { ...requestOptions, signal: checkSignal }).then(
            (results) => ({ inputs, results }),
            (error: unknown) => ({ inputs, error }),
          ),
        );
      }
      const oldest = window.shift();
      if (!oldest) break;
      const settled = await oldest;
      if (signal?.aborted) throw new APIUserAbortError();
      if ('results' in settled) {
        for (const [i, answer] of settled.results.entries()) {
          const input = settled.inputs[i]!;
          yield answer instanceof ScrubError ? { input, error: answer } : { input, result: answer };
        }
        continue;
      }
      const { error } = settled;
      // Anything but a ScrubError is a fault in this process, not an answer: it ends the run.
      if (!(error instanceof ScrubError)) throw error;
      if (stopsTheRun(error)) stoppedBy ??= error;
      else for (const input of settled.inputs) yield { input, error };
    }
  } finally {
    cancel.abort();
    // Cancelled checks settle at once; waiting for them means no request outlives the run.
    await Promise.all(window);
    if (!inputDone) await input.return?.();
  }
  if (stoppedBy) throw stoppedBy;
}

/** Builds `scrub.verify`: the call itself, with `batch` and `many` attached. */
export function createVerify(client: Scrub): Verify {
  const verify: Check = (
    phone,
    { proof, test, consentDate, lookup, lists, ...options }: VerifyOptions = {},
  ) =>
    client.request(
      routes.verify,
      {
        p: phone,
        ...(proof ? { proof: '1' as const } : {}),
        ...(test ? { test: '1' as const } : {}),
        ...(consentDate === undefined ? {} : { consent_date: consentDate }),
        ...(lookup ? { lookup } : {}),
        ...(lists === undefined ? {} : { lists: lists.join(',') }),
      },
      options,
    );
  const batch: Batch = async (
    phones,
    { consentDate, lookup, lists, ...options }: VerifyBatchOptions = {},
  ) => {
    if (typeof phones === 'string') {
      throw new TypeError('verify.batch() takes a list of numbers; check one with verify()');
    }
    const answered: VerifyBatchResult = { results: [] };
    for (let from = 0; from < phones.length || from === 0; from += MAX_BATCH_NUMBERS) {
      const part = await client.request(
        routes.verifyBatch,
        {
          phones: phones.slice(from, from + MAX_BATCH_NUMBERS),
          ...(consentDate === undefined ? {} : { consent_date: consentDate }),
          ...(lookup ? { lookup } : {}),
          ...(lists === undefined ? {} : { lists: [...lists] }),
        },
        options,
      );
      answered.results.push(...part.results);
      if (part.credits_deducted !== undefined) {
        answered.credits_deducted = (answered.credits_deducted ?? 0) + part.credits_deducted;
        answered.credits_remaining = part.credits_remaining;
      }
    }
    return answered;
  };
  return Object.assign(verify, {
    batch,
    many: (phones: Iterable<string> | AsyncIterable<string>, options?: VerifyManyOptions) =>
      verifyMany(batch, verify, phones, options),
  });
}
