import type { Kysely } from 'kysely';

/**
 * A card link's claim: set while one request saves a card with it, so that a second save at the
 * same moment is refused (409) instead of saving a second card. Cleared when the save is refused
 * (the link stays open for the retry); a claim older than two minutes is a crashed save, and lapses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_links').addColumn('claimed_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_links').dropColumn('claimed_at').execute();
}
