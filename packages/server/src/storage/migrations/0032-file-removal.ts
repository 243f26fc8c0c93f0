import { type Kysely, sql } from 'kysely';

/**
 * Data the customer can delete (issue 26, item 5). `bulk_jobs.files_removed_at`: when a file's
 * upload and result left the file store, and `files_removed_by` why (`retention`: older than
 * SCRUB_FILE_RETENTION_DAYS; `customer`: deleted by its owner; `account`: its account was deleted).
 * The row stays: the ledger and the proof of scrub need its counts and hashes. `profiles.deleted_at`:
 * a deleted account, its personal data replaced by a tombstone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('files_removed_at', 'timestamptz')
    .addColumn('files_removed_by', 'text', (c) =>
      c.check(sql`files_removed_by in ('retention', 'customer', 'account')`),
    )
    .execute();
  await db.schema
    .createIndex('bulk_jobs_retention_idx')
    .on('bulk_jobs')
    .column('created_at')
    .where(sql.ref('files_removed_at'), 'is', null)
    .execute();
  await db.schema.alterTable('profiles').addColumn('deleted_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('deleted_at').execute();
  await db.schema.dropIndex('bulk_jobs_retention_idx').execute();
  await db.schema
    .alterTable('bulk_jobs')
    .dropColumn('files_removed_at')
    .dropColumn('files_removed_by')
    .execute();
}
