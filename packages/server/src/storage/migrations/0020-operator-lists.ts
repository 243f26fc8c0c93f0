import { type Kysely, sql } from 'kysely';

/**
 * Operator lists (known litigators, vendors' lists) a customer counts. `profiles.lists`: the
 * account's default, the names checked on every check and job that names none of its own.
 * `bulk_jobs.lists`: the lists a job flags, one result column each, fixed when it is created; null
 * for jobs from before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('lists', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema.alterTable('bulk_jobs').addColumn('lists', 'jsonb').execute();
}
