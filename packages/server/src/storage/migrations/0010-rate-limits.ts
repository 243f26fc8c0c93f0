import type { Kysely } from 'kysely';

/**
 * Requests counted per rate-limit bucket (`key:<account>`, `account:<account>`, `address:<ip>`) and
 * fixed window, shared by every process of the service (`rate-limit/rate-limit-store.ts`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    /** Requests handed out in this window, by all processes together. */
    .addColumn('hits', 'integer', (c) => c.notNull())
    /** When the window ends: rows past it are deleted. */
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pkey', ['bucket', 'window_start'])
    .execute();
  await db.schema
    .createIndex('rate_limit_windows_by_end')
    .on('rate_limit_windows')
    .column('expires_at')
    .execute();
}
