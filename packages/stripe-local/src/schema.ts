import { type Kysely, sql } from 'kysely';

/**
 * The provider's state: every object it serves as Stripe's JSON, the idempotency keys it has
 * answered, and its webhook deliveries. `local-stripe-store.ts` types these tables.
 *
 * The Scrub server creates the same tables in its own migration 0006-local-stripe (kept there
 * unchanged, as released migrations are): a change of schema here needs a new migration there.
 */
export async function createLocalStripeTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('local_stripe_objects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('object', 'text', (c) => c.notNull())
    .addColumn('customer', 'text')
    .addColumn('email', 'text')
    .addColumn('lookup_key', 'text')
    /** When a subscription's period ends (it renews or ends then); null for everything else. */
    .addColumn('due_at', 'bigint')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    /** What Stripe knows but never shows: the test card's behaviour, a client secret's intent. */
    .addColumn('internal', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema
    .createIndex('local_stripe_objects_by_customer')
    .on('local_stripe_objects')
    .columns(['object', 'customer', 'seq'])
    .execute();
  await db.schema
    .createIndex('local_stripe_objects_by_email')
    .on('local_stripe_objects')
    .columns(['object', 'email'])
    .execute();
  await db.schema
    .createIndex('local_stripe_objects_by_lookup_key')
    .on('local_stripe_objects')
    .columns(['object', 'lookup_key'])
    .execute();
  await db.schema
    .createIndex('local_stripe_objects_due')
    .on('local_stripe_objects')
    .column('due_at')
    .where(sql.ref('due_at'), 'is not', null)
    .execute();

  await db.schema
    .createTable('local_stripe_idempotency')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('response', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('local_stripe_deliveries')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('local_stripe_deliveries_pending')
    .on('local_stripe_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('delivered_at'), 'is', null)
    .execute();
}

export async function dropLocalStripeTables(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('local_stripe_deliveries').execute();
  await db.schema.dropTable('local_stripe_idempotency').execute();
  await db.schema.dropTable('local_stripe_objects').execute();
}
