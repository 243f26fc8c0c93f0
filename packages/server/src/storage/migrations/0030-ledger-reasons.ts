import { type Kysely, sql } from 'kysely';

/**
 * Why a reversal gave credits back, so that a job's credits reconcile by reason: `duplicates`,
 * `invalid` (rows without a valid number), `unanswered_lookups` (carrier lookups the provider did
 * not answer), `failed_or_cut` (a failed job, or records a cut-off stream did not bring), and
 * `unspecified` for the old reversals that gave back duplicates and invalid numbers in one entry
 * (their split was not recorded). Old rows are read from their notes where the note says the reason.
 * Also an index for a job's own entries (the export page reads them a page of jobs at a time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('credit_ledger')
    .addColumn('reason', 'text', (c) =>
      c.check(sql`reason in ('duplicates', 'invalid', 'unanswered_lookups', 'failed_or_cut', 'unspecified')`),
    )
    .execute();
  await sql`update credit_ledger set reason = case
      when note like 'job failed:%' or note = 'reserved for records the stream did not bring' then 'failed_or_cut'
      else 'unspecified' end
    where kind = 'reversal'`.execute(db);
  await db.schema
    .createIndex('credit_ledger_job_idx')
    .on('credit_ledger')
    .columns(['profile_id', 'reference'])
    .where(sql.ref('kind'), 'in', sql`('bulk_charge', 'reversal')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('credit_ledger_job_idx').execute();
  await db.schema.alterTable('credit_ledger').dropColumn('reason').execute();
}
