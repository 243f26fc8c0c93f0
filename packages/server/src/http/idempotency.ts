import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';

/** How long an answer is kept for replay (Stripe keeps its keys 24 hours too). */
const KEEP_HOURS = 24;
/** A request still marked in progress after this long died with its process: a retry takes over. */
const STALE_SECONDS = 300;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Stored answers may carry secrets (`PUT /apikey` answers the new key, shown nowhere else), so
 * the database holds only a hash of each key and the answer sealed with a key derived from it:
 * only a caller who holds the Idempotency-Key can have the answer back.
 */
const lookupOf = (key: string) => createHash('sha256').update(`lookup:${key}`).digest('hex');
const sealingKeyOf = (scope: string, key: string) =>
  createHash('sha256').update(`seal:${scope}:${key}`).digest();

/** Sealed answers stored since they are compressed start with this; those stored before have no prefix. */
const COMPRESSED = 'z:';
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * The answer compressed (on the thread pool), then sealed: a batch check's answer is megabytes of
 * repetitive JSON, which the sealed bytes would no longer let the database compress.
 */
async function seal(scope: string, key: string, json: string): Promise<string> {
  const packed = await deflate(json, { level: 1 });
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKeyOf(scope, key), iv);
  const sealed = Buffer.concat([cipher.update(packed), cipher.final()]);
  return COMPRESSED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

async function unseal(scope: string, key: string, stored: string): Promise<unknown> {
  const compressed = stored.startsWith(COMPRESSED);
  const bytes = Buffer.from(compressed ? stored.slice(COMPRESSED.length) : stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKeyOf(scope, key), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  const opened = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
  return JSON.parse((compressed ? await inflate(opened) : opened).toString('utf8'));
}

export type IdempotencyStart = { kind: 'new' } | { kind: 'replay'; status: number; body: unknown };

/** What makes two requests the same one: method, URL (path and query) and body. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${body === undefined ? '' : JSON.stringify(body)}`)
    .digest('hex');
}

/** The `Idempotency-Key` header, checked; undefined when the request has none. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !KEY_PATTERN.test(key)) {
    throw new ApiError(
      'bad_request',
      'Idempotency-Key must be 1 to 255 printable characters without spaces (a UUID is a good choice).',
      {
        issues: [{ location: 'headers', path: 'idempotency-key', message: '1 to 255 printable characters' }],
      },
    );
  }
  return key;
}

/**
 * Requests made safe to repeat: the first with a key does the work and its answer is stored; the
 * same key and request again answers that, the work done once, from any process sharing the
 * database. A key reused for another request is refused (422), one still in progress is a 409.
 */
export class IdempotencyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async begin(scope: string, rawKey: string, fingerprint: string): Promise<IdempotencyStart> {
    const key = lookupOf(rawKey);
    await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${KEEP_HOURS})`)
      .execute();
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({ scope, key, fingerprint, status_code: null, response_body: null, completed_at: null })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'new' };
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row) return this.begin(scope, rawKey, fingerprint);
    if (row.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_key_reused',
        `This Idempotency-Key was already used with a different request: send a new key for a new request.`,
      );
    }
    if (row.completed_at && row.status_code !== null && row.response_body !== null) {
      return {
        kind: 'replay',
        status: row.status_code,
        body: await unseal(scope, rawKey, row.response_body),
      };
    }
    const takenOver = await this.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date() })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('completed_at', 'is', null)
      .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_SECONDS})`)
      .returning('key')
      .executeTakeFirst();
    if (takenOver) return { kind: 'new' };
    throw new ApiError(
      'idempotency_key_in_progress',
      'A request with this Idempotency-Key is still being answered: retry in a moment for its answer.',
      { headers: { 'retry-after': '1' } },
    );
  }

  /** Keeps the answer for replays; `json` is its text when the route has written it already. */
  async complete(
    scope: string,
    rawKey: string,
    status: number,
    body: unknown,
    json = JSON.stringify(body ?? null),
  ): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: status, response_body: await seal(scope, rawKey, json), completed_at: new Date() })
      .where('scope', '=', scope)
      .where('key', '=', lookupOf(rawKey))
      .execute();
  }

  /** The work failed: the key is free again, so a retry does it afresh (a refused payment charged nothing). */
  async abandon(scope: string, rawKey: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('key', '=', lookupOf(rawKey))
      .where('completed_at', 'is', null)
      .execute();
  }
}
