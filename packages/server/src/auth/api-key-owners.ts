import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../storage/schema.js';
import { findApiKeyOwner, hashApiKey } from './api-keys.js';

export type ApiKeyOwner = NonNullable<Awaited<ReturnType<typeof findApiKeyOwner>>>;

/**
 * Who owns an API key, remembered for a few seconds: a client checking numbers one by one sends
 * the same key thousands of times a second, and the lookup would otherwise cost a query each time.
 * A key replaced in this process stops working at once (`forget`); in another process, within
 * `ttlSeconds`. Unknown keys are never remembered, so a key works the moment it is issued.
 */
export class ApiKeyOwners {
  readonly #owners: LRUCache<string, ApiKeyOwner> | null;
  /** Counts `forget` calls: a lookup that began before one must not remember what it found. */
  #forgets = 0;

  constructor(
    private readonly db: Kysely<Database>,
    ttlSeconds: number,
  ) {
    this.#owners = ttlSeconds > 0 ? new LRUCache({ max: 10_000, ttl: ttlSeconds * 1000 }) : null;
  }

  async find(key: string): Promise<ApiKeyOwner | undefined> {
    const hash = hashApiKey(key);
    const known = this.#owners?.get(hash);
    if (known) return known;
    const forgets = this.#forgets;
    const owner = await findApiKeyOwner(this.db, key);
    if (owner && forgets === this.#forgets) this.#owners?.set(hash, owner);
    return owner;
  }

  /** Drops what is remembered about an account's keys: after a rotation or a role change. */
  forget(profileId: string): void {
    this.#forgets++;
    if (!this.#owners) return;
    for (const [hash, owner] of this.#owners.entries()) {
      if (owner.id === profileId) this.#owners.delete(hash);
    }
  }
}
