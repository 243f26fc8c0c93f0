import type { Kysely } from 'kysely';

/**
 * Client Performance (issue 26): `GET /usage` sums an account's ledger entries and finished bulk
 * jobs over a range of days. These indexes read only the range (the phone log's own index on
 * `profile_id, checked_at` serves its checks).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('credit_ledger_profile_created_idx')
    .on('credit_ledger')
    .columns(['profile_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('bulk_jobs_profile_completed_idx')
    .on('bulk_jobs')
    .columns(['profile_id', 'completed_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bulk_jobs_profile_completed_idx').execute();
  await db.schema.dropIndex('credit_ledger_profile_created_idx').execute();
}
