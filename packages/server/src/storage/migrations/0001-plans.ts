import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('plan_reference', 'text', (c) => c.primaryKey())
    .addColumn('plan_name', 'text', (c) => c.notNull())
    .addColumn('plan_subtitle', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('plan_type', 'text', (c) =>
      c.notNull().check(sql`plan_type in ('prepaid', 'postpaid', 'intro')`),
    )
    .addColumn('plan_amount', 'numeric(12, 2)', (c) => c.notNull().check(sql`plan_amount >= 0`))
    .addColumn('percent_off', 'numeric(5, 2)', (c) => c.notNull().defaultTo(0))
    .addColumn('plan_credits', 'integer', (c) => c.check(sql`plan_credits >= 0`))
    .addColumn('plan_credits_text', 'text', (c) => c.notNull())
    .addColumn('bonus_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interval', 'text', (c) => c.check(sql`interval in ('month')`))
    .addColumn('unlimited', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('amount_options', 'jsonb', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('plans').execute();
}
