import type { VerifyResult } from '@scrub/contract';

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

interface Slot {
  entry: CachedAnswer;
  /** When the answer stops being reused (ms since the epoch). */
  expires: number;
}

/**
 * Answers already given to an account, reused for `ttlSeconds`: a repeat of the same number is
 * answered `cached: true` and costs nothing. Keyed by the datasets' generation and the account's
 * own list's version as well, so an import or a change to the account's suppression list makes
 * every answer fresh again: a cached "clean" never outlives the data that said it. Per process:
 * with several processes, a repeat that lands on another one is checked (and paid for) again.
 *
 * At most `maxEntries` answers: past that the least recently used go first, from the account (and
 * generation) least recently used. Held as one map of numbers per account and generation, so a
 * look-up hashes the number the check already made, not a key made for it (`POST /verify` looks
 * up and remembers 10,000 numbers at a time).
 */
export class AnswerCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  /** Per account and generation, its answers by number; both in order of use, least recent first. */
  readonly #buckets = new Map<string, Map<string, Slot>>();
  /** The bucket used last (the most recent one), found again without making its key. */
  #last: { profileId: string; generation: string; bucket: Map<string, Slot> } | null = null;
  #size = 0;

  constructor({ ttlSeconds, maxEntries }: AnswerCacheOptions) {
    this.#ttlMs = ttlSeconds * 1000;
    this.#maxEntries = maxEntries;
  }

  get(profileId: string, generation: string, e164: string): CachedAnswer | undefined {
    if (this.#ttlMs <= 0) return undefined;
    const bucket = this.#bucket(profileId, generation, false);
    const slot = bucket?.get(e164);
    if (!bucket || !slot) return undefined;
    bucket.delete(e164);
    if (slot.expires <= Date.now()) {
      this.#size--;
      if (bucket.size === 0) this.#drop(`${profileId}|${generation}`);
      return undefined;
    }
    bucket.set(e164, slot);
    return slot.entry;
  }

  /** Remembers an answer at once, so that a concurrent repeat waits for its payment instead of paying again. */
  set(profileId: string, generation: string, e164: string, entry: CachedAnswer): void {
    if (this.#ttlMs <= 0) return;
    const bucket = this.#bucket(profileId, generation, true)!;
    if (bucket.delete(e164)) this.#size--;
    bucket.set(e164, { entry, expires: Date.now() + this.#ttlMs });
    this.#size++;
    if (this.#size > this.#maxEntries)
      this.#evict(this.#size - this.#maxEntries + Math.floor(this.#maxEntries / 64));
  }

  /** Forgets the number's answer; with `entry`, only while the answer held is that one. */
  delete(profileId: string, generation: string, e164: string, entry?: CachedAnswer): void {
    const bucket = this.#bucket(profileId, generation, false);
    if (entry !== undefined && bucket?.get(e164)?.entry !== entry) return;
    if (!bucket?.delete(e164)) return;
    this.#size--;
    if (bucket.size === 0) this.#drop(`${profileId}|${generation}`);
  }

  /** How many answers are held (expired ones included until they are looked up or pushed out). */
  get size(): number {
    return this.#size;
  }

  /** The account's map for this generation, made the most recently used; made when `create`. */
  #bucket(profileId: string, generation: string, create: boolean): Map<string, Slot> | undefined {
    const last = this.#last;
    if (last !== null && last.profileId === profileId && last.generation === generation) return last.bucket;
    const key = `${profileId}|${generation}`;
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      if (!create) return undefined;
      bucket = new Map();
    } else {
      this.#buckets.delete(key);
    }
    this.#buckets.set(key, bucket);
    this.#last = { profileId, generation, bucket };
    return bucket;
  }

  #drop(key: string): void {
    const bucket = this.#buckets.get(key);
    this.#buckets.delete(key);
    if (bucket !== undefined && this.#last?.bucket === bucket) this.#last = null;
  }

  /**
   * Drops the `count` least recently used answers in one pass, a 64th of the cache more than
   * needed: a map's deleted entries are skipped by every later walk from its start (until it is
   * rebuilt), so evicting one answer per new one walked over all those before it, each time.
   */
  #evict(count: number): void {
    for (const [key, bucket] of this.#buckets) {
      for (const number of bucket.keys()) {
        if (count <= 0) break;
        bucket.delete(number);
        this.#size--;
        count--;
      }
      if (bucket.size === 0) this.#drop(key);
      if (count <= 0) return;
    }
  }
}
