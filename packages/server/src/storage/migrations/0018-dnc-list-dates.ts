import type { Kysely } from 'kysely';

/**
 * Do-not-call list dates. `bulk_jobs.dnc_lists`: each list a job answered from, with its release
 * date, age and staleness when scrubbed (for its proof of scrub); null for jobs from before.
 * `dnc_age_alerts`: the warnings sent to admins before a list goes stale, one per list version and
 * warning, so that each is sent once whatever the number of processes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bulk_jobs').addColumn('dnc_lists', 'jsonb').execute();
  await db.schema
    .createTable('dnc_age_alerts')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('days_before', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('dnc_age_alerts_pkey', ['list', 'version', 'days_before'])
    .execute();
}
