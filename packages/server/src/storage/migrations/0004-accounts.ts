import { type Kysely, sql } from 'kysely';

/**
 * Accounts: the profile of each identity (keyed by the identity provider's `sub`), API keys (only
 * hashes), and the credit ledger. `profiles.credits` is a cached balance that the ledger updates in
 * the same transaction as each entry; the check constraint is the last line against overdraft.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('profiles')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('sub', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) =>
      c.notNull().defaultTo('User').check(sql`role in ('User', 'Agency', 'Admin', 'Super Admin')`),
    )
    .addColumn('plan_reference', 'text', (c) => c.references('plans.plan_reference'))
    .addColumn('plan_status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`plan_status in ('active', 'paused')`),
    )
    .addColumn('plan_expires_at', 'timestamptz')
    .addColumn('subscription_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('none')
        .check(sql`subscription_status in ('none', 'active', 'paused', 'past_due', 'canceled')`),
    )
    .addColumn('address', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('purchase_settings', 'jsonb', (c) =>
      c.notNull().defaultTo(sql`'{"scrubs_amount": 0, "is_scrub_enabled": false}'::jsonb`),
    )
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0).check(sql`credits >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('profiles_email_idx').on('profiles').expression(sql`lower(email)`).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('api_keys_one_active_idx')
    .on('api_keys')
    .column('profile_id')
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id'))
    .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
    .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('grant', 'purchase', 'check', 'bulk_charge', 'reversal', 'adjustment')`),
    )
    .addColumn('reference', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('credit_ledger_profile_idx')
    .on('credit_ledger')
    .columns(['profile_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credit_ledger').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('profiles').execute();
}
