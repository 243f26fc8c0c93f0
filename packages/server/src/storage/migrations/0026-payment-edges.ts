import type { Kysely } from 'kysely';

/**
 * Two payment edges:
 * - a card link's claim: set while one request saves a card with it, so that a second save at the
 *   same moment is refused (409) instead of saving a second card. Cleared when the save is refused
 *   (the link stays open for the retry); a claim older than two minutes is a crashed save, and lapses;
 * - audit entries with no actor account: a refund made in the payment provider's dashboard is
 *   audited with the provider as its actor (`actor_email`), and no admin's id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_links').addColumn('claimed_at', 'timestamptz').execute();
  await db.schema
    .alterTable('audit_log')
    .alterColumn('actor_id', (c) => c.dropNotNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('audit_log')
    .alterColumn('actor_id', (c) => c.setNotNull())
    .execute();
  await db.schema.alterTable('payment_links').dropColumn('claimed_at').execute();
}
