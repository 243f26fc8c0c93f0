import type { Kysely } from 'kysely';

/**
 * What a proof of scrub states about a job, recorded by the worker as it scrubs: the SHA-256 of the
 * upload and of the result (hashed as they stream, no second read), the distinct numbers looked up,
 * and every dataset version the job answered from. Null for jobs completed before this migration
 * and for imported existing files: the service has no proof of those.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('upload_sha256', 'text')
    .addColumn('result_sha256', 'text')
    .addColumn('numbers_checked', 'integer')
    .addColumn('dataset_versions', 'jsonb')
    .execute();
}
