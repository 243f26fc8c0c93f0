import type { Kysely } from 'kysely';

/**
 * Carrier lookups in bulk jobs, and what a job's proof names. `lookup`: `carrier` when the job asks
 * a live carrier lookup of each distinct valid number, null otherwise. `lookup_price`: credits one
 * answered lookup costs, fixed when the job is made (part of `record_price`; given back for a number
 * the provider did not answer). Once the job ran: `carrier_lookups` (provider, answered, not
 * answered), `line_type_sources` (rows by what their line type rests on) and `operator_lists` (each
 * operator list the result flags, with its version and release date).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('lookup', 'text')
    .addColumn('lookup_price', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('carrier_lookups', 'jsonb')
    .addColumn('line_type_sources', 'jsonb')
    .addColumn('operator_lists', 'jsonb')
    .execute();
}
