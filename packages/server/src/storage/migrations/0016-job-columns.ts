import { type Kysely, sql } from 'kysely';

/**
 * Optional result columns a bulk job asked for (`timezone`, `callable_now`), and when its
 * `callable_now` cells were evaluated (the scrub's start): a result file is as of that instant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('output_columns', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema.alterTable('bulk_jobs').addColumn('columns_evaluated_at', 'timestamptz').execute();
}
