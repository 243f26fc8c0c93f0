import type { Kysely } from 'kysely';

/**
 * Carrier lookups' answers (Twilio Lookup's line type intelligence), one row per number, reused for
 * 30 days so that a number is paid for at the provider at most once a month whoever asks. Failed
 * lookups are never kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('carrier_lookups')
    .addColumn('phone_number', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_type', 'text')
    .addColumn('carrier_name', 'text')
    .addColumn('mobile_country_code', 'text')
    .addColumn('mobile_network_code', 'text')
    .addColumn('looked_up_at', 'timestamptz', (c) => c.notNull())
    .execute();
}
