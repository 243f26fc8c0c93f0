import type { Kysely } from 'kysely';

/**
 * Reassigned numbers in bulk jobs. `consent_col`: the column of each row's consent date (header
 * text or zero-based position), null when the job asks no reassigned-number answers.
 * `record_price`: credits one record costs, fixed when the job is made (1, or 1 and the
 * reassigned-number price with a consent column), so that its charge, its reversals and its quote
 * agree whatever the settings become. `reassigned_source`: who answered the Reassigned column and
 * the date the data is complete to, once the job ran; null when nothing could.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('consent_col', 'jsonb')
    .addColumn('record_price', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reassigned_source', 'jsonb')
    .execute();
}
