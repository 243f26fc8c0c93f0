import { type Kysely, sql } from 'kysely';

/**
 * The answers given to requests that carried an `Idempotency-Key`, per caller: the same key and
 * request again gets the stored answer and does the work no second time, from any process. Keys
 * are stored hashed and answers sealed with a key derived from them (`http/idempotency.ts`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    /** Whose key: the account, or `public` for unauthenticated calls. */
    .addColumn('scope', 'text', (c) => c.notNull())
    /** SHA-256 of the caller's key, never the key itself. */
    .addColumn('key', 'text', (c) => c.notNull())
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    /** The answer's JSON, AES-256-GCM sealed with a key derived from the caller's key. */
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_by_age')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}
