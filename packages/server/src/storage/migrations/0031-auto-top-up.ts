import { type Kysely, sql } from 'kysely';

/**
 * Auto top-up and the low-balance e-mail (issue 26 item 4). `balance_watches` holds an account's
 * settings and whether each alert is armed: a crossing below a threshold disarms it (claimed once,
 * whatever the number of processes, noting the newest ledger entry then) and the balance back at
 * the threshold (now, or in any later ledger entry) re-arms it.
 * `auto_top_ups` keeps every attempt; at most one per account is pending at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('balance_watches')
    .addColumn('profile_id', 'uuid', (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('top_up_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('top_up_threshold', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('top_up_plan_reference', 'text')
    .addColumn('top_up_amount_cents', 'integer')
    .addColumn('top_up_armed', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('top_up_claimed_entry', 'bigint')
    .addColumn('top_up_stopped_reason', 'text')
    .addColumn('top_up_stopped_at', 'timestamptz')
    .addColumn('low_balance_threshold', 'integer')
    .addColumn('low_balance_armed', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('low_balance_claimed_entry', 'bigint')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('auto_top_ups')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'succeeded', 'declined', 'failed')`),
    )
    .addColumn('plan_reference', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('balance_before', 'integer', (c) => c.notNull())
    .addColumn('purchase_id', 'uuid')
    .addColumn('credits_added', 'integer')
    .addColumn('message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('auto_top_ups_profile_idx')
    .on('auto_top_ups')
    .columns(['profile_id', 'created_at'])
    .execute();
  // One attempt under way per account: the claim that makes a crossing charge once.
  await sql`create unique index auto_top_ups_one_pending on auto_top_ups (profile_id) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auto_top_ups').execute();
  await db.schema.dropTable('balance_watches').execute();
}
