import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

export const API_KEY_PREFIX = 'scrub_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 40 base62 characters: 238 random bits. Base62 so a double click selects the whole key. */
const RANDOM_LENGTH = 40;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH}}$`);

export function generateApiKey(): string {
  let key = API_KEY_PREFIX;
  for (let i = 0; i < RANDOM_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

export const looksLikeApiKey = (value: string) => KEY_PATTERN.test(value);

/**
 * SHA-256, unsalted and fast on purpose: a key carries 238 random bits, so nobody can guess it
 * from its hash however fast they hash, and an unsalted digest can be looked up by index on
 * every request. Slow salted hashes protect low-entropy passwords, not random keys.
 */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface IssuedApiKey {
  api_key: string;
  api_key_id: string;
  last4: string;
  created_at: string;
}

/**
 * Issues a new key and revokes the previous one in the same transaction, so the old key stops
 * working the moment the new one exists. The profile row is locked first, so two rotations at
 * once queue up instead of both revoking the same key.
 */
export async function rotateApiKey(db: Kysely<Database>, profileId: string): Promise<IssuedApiKey> {
  const key = generateApiKey();
  return db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('profiles')
      .select('id')
      .where('id', '=', profileId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('profile_id', '=', profileId)
      .where('revoked_at', 'is', null)
      .execute();
    const row = await trx
      .insertInto('api_keys')
      .values({ profile_id: profileId, key_hash: hashApiKey(key), last4: key.slice(-4), revoked_at: null })
      .returning(['id', 'last4', 'created_at'])
      .executeTakeFirstOrThrow();
    return { api_key: key, api_key_id: row.id, last4: row.last4, created_at: row.created_at.toISOString() };
  });
}

/** Who owns an active key; undefined for a key never issued or already replaced. */
export async function findApiKeyOwner(db: Kysely<Database>, key: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('profiles', 'profiles.id', 'api_keys.profile_id')
    .select([
      'profiles.id',
      'profiles.sub',
      'profiles.email',
      'profiles.role',
      'profiles.disabled_at',
      'profiles.tokens_valid_after',
      'api_keys.id as key_id',
    ])
    .where('api_keys.key_hash', '=', hashApiKey(key))
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

export interface ApiKeyMetadata {
  api_key_id: string | null;
  api_key_last4: string | null;
  api_key_created_at: string | null;
}

export async function activeApiKeyMetadata(db: Kysely<Database>, profileId: string): Promise<ApiKeyMetadata> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'last4', 'created_at'])
    .where('profile_id', '=', profileId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return {
    api_key_id: row?.id ?? null,
    api_key_last4: row?.last4 ?? null,
    api_key_created_at: row?.created_at.toISOString() ?? null,
  };
}
