import type { Kysely } from 'kysely';

/**
 * Issue 26: a job may ask its result file to name the mapped columns (`mapping`) with the standard
 * headers (`First Name`, `Email`...). Off for every job before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('mapped_headers', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bulk_jobs').dropColumn('mapped_headers').execute();
}
