import { type Kysely, sql } from 'kysely';

/**
 * Refunds and payment links. A purchase keeps the total refunded; each refund is one row keyed by
 * the provider's refund id (`re_...`), so the admin's call and the `charge.refunded` webhook that
 * reports it record it once, with the credits it took back and what the account no longer had.
 * A payment link lets a browser without a session add a card to one account, or confirm one
 * payment (3-D Secure), once, before it expires; only a hash of its token is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('purchases')
    .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0).check(sql`refunded_cents >= 0`))
    .execute();
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('purchase_id', 'uuid', (c) => c.notNull().references('purchases.id').onDelete('cascade'))
    .addColumn('provider_refund_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('reason', 'text', (c) => c.notNull())
    /** The admin who refunded; null for a refund made at the provider (Stripe's dashboard). */
    .addColumn('admin_id', 'uuid', (c) => c.references('profiles.id'))
    .addColumn('admin_email', 'text')
    .addColumn('credits_due', 'integer', (c) => c.notNull().check(sql`credits_due >= 0`))
    .addColumn('credits_taken', 'integer', (c) => c.notNull().check(sql`credits_taken >= 0`))
    .addColumn('credits_shortfall', 'integer', (c) => c.notNull().check(sql`credits_shortfall >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('refunds_by_purchase').on('refunds').column('purchase_id').execute();
  await db.schema
    .createTable('payment_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('add_card', 'authenticate')`))
    /** `authenticate`: the payment intent the customer confirms. */
    .addColumn('payment_intent_id', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
