import { type Kysely, sql } from 'kysely';

/**
 * Payments on the service's side: each account's payment customer and subscription (the
 * provider's ids), one row per purchase keyed by the provider object that paid it (so a retried
 * request or a redelivered webhook can never add credits twice), and the webhook events handled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('payment_customer_id', 'text')
    .addColumn('subscription_id', 'text')
    .execute();
  await db.schema.createIndex('profiles_by_subscription').on('profiles').column('subscription_id').execute();
  await db.schema
    .createTable('purchases')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('intro', 'purchase', 'subscription')`))
    .addColumn('plan_reference', 'text', (c) => c.notNull())
    .addColumn('plan_name', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('credits', 'integer', (c) => c.notNull().check(sql`credits >= 0`))
    .addColumn('bonus_credits', 'integer', (c) => c.notNull().defaultTo(0).check(sql`bonus_credits >= 0`))
    /** The payment intent or invoice that paid: one purchase per provider object, whatever retries. */
    .addColumn('provider_object_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('purchases_by_profile')
    .on('purchases')
    .columns(['profile_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('payment_webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Bonuses, subscription grants and refunds are ledger entries of their own kinds.
  await sql`alter table credit_ledger drop constraint credit_ledger_kind_check`.execute(db);
  await sql`alter table credit_ledger add constraint credit_ledger_kind_check check (kind in ('grant', 'purchase', 'bonus', 'subscription_grant', 'refund', 'check', 'bulk_charge', 'reversal', 'adjustment'))`.execute(
    db,
  );
}
