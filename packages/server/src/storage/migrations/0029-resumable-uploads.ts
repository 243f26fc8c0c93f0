import type { Kysely } from 'kysely';

/**
 * Resumable uploads (issue 27): a bulk job's file sent in numbered parts. A row is one upload:
 * the file store's own id for it (an S3 multipart upload's, or the local store's parts folder),
 * the file's size and part size, and when it is abandoned (its parts removed by the expiry sweep).
 * The job's own row is not referenced: the sweep removes the parts of an upload whose job is gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('resumable_uploads')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('job_id', 'uuid', (c) => c.notNull())
    .addColumn('upload_key', 'text', (c) => c.notNull())
    .addColumn('store_upload_id', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('part_size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('resumable_uploads_job_idx').on('resumable_uploads').column('job_id').execute();
  await db.schema
    .createIndex('resumable_uploads_expires_idx')
    .on('resumable_uploads')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('resumable_uploads').execute();
}
