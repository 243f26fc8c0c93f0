import type { VerifyResult } from '@scrub/contract';
import { LRUCache } from 'lru-cache';

/**
 * An answer as the engine gave it, before what it cost is known, and without the calling window,
 * which is worked out when answered (a cached answer's `callable_now` is as of the repeat).
 */
export type CheckAnswer = Omit<
  VerifyResult,
  'cached' | 'credits_deducted' | 'credits_remaining' | 'timezones' | 'callable_now' | 'callable_reason'
>;

export interface CachedAnswer {
  answer: CheckAnswer;
  /** Settles true once the first check of the number was paid for, false when it was refused. */
  paid: Promise<boolean>;
}

export interface AnswerCacheOptions {
  /** How long an account's answer is reused; 0 turns the cache off. */
  ttlSeconds: number;
  maxEntries: number;
}

/**
 * Answers already given to an account, reused for `ttlSeconds`: a repeat of the same number is
 * answered `cached: true` and costs nothing. Keyed by the datasets' generation and the account's
 * own list's version as well, so an import or a change to the account's suppression list makes
 * every answer fresh again: a cached "clean" never outlives the data that said it. Per process:
 * with several processes, a repeat that lands on another one is checked (and paid for) again.
 */
export class AnswerCache {
  readonly #entries: LRUCache<string, CachedAnswer> | null;

  constructor({ ttlSeconds, maxEntries }: AnswerCacheOptions) {
    this.#entries =
      ttlSeconds > 0 ? new LRUCache({ max: maxEntries, ttl: ttlSeconds * 1000, ttlAutopurge: false }) : null;
  }

  get(profileId: string, generation: string, e164: string): CachedAnswer | undefined {
    return this.#entries?.get(keyOf(profileId, generation, e164));
  }

  /** Remembers an answer at once, so that a concurrent repeat waits for its payment instead of paying again. */
  set(profileId: string, generation: string, e164: string, entry: CachedAnswer): void {
    this.#entries?.set(keyOf(profileId, generation, e164), entry);
  }

  delete(profileId: string, generation: string, e164: string): void {
    this.#entries?.delete(keyOf(profileId, generation, e164));
  }
}

const keyOf = (profileId: string, generation: string, e164: string) => `${profileId}|${generation}|${e164}`;
