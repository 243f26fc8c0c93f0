import { type Kysely, sql } from 'kysely';

/**
 * The phone log (issue 26): every single check (`GET /verify`, each number of a `POST /verify`
 * batch, the API page's test check) with its answer, when, how it came in and what it cost. Rows
 * older than SCRUB_CHECK_LOG_DAYS are removed by the expiry sweep.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('check_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('line_type', 'text', (c) => c.notNull())
    .addColumn('dnc', 'boolean')
    .addColumn('cached', 'boolean', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('single', 'batch', 'test')`))
    .addColumn('via', 'text', (c) => c.notNull().check(sql`via in ('token', 'api_key', 'act_as')`))
    .addColumn('api_key_id', 'uuid')
    .addColumn('actor_profile_id', 'uuid')
    .addColumn('answer', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('check_log_profile_idx')
    .on('check_log')
    .columns(['profile_id', 'checked_at', 'id'])
    .execute();
  await db.schema
    .createIndex('check_log_profile_number_idx')
    .on('check_log')
    .columns(['profile_id', 'phone_number'])
    .execute();
  // The retention sweep removes rows by age.
  await db.schema.createIndex('check_log_checked_at_idx').on('check_log').column('checked_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('check_log').execute();
}
