import type { Kysely } from 'kysely';

/**
 * A rotated webhook secret's grace period: the secret it replaced keeps signing deliveries, beside
 * the new one, until `previous_secret_expires_at`, so that a receiver mid-deploy drops nothing.
 * Both null when there is no old secret still signing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .execute();
  // The retention sweep removes events by age.
  await db.schema
    .createIndex('webhook_events_created_idx')
    .on('webhook_events')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_events_created_idx').execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .dropColumn('previous_secret')
    .dropColumn('previous_secret_expires_at')
    .execute();
}
