import { type Kysely, sql } from 'kysely';

/**
 * Agency client accounts: a User account may be the client of one Agency account (`agency_id`).
 * An Agency sees and manages its clients only; admins link and unlink them. Profiles are never
 * deleted, so the reference always resolves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('agency_id', 'uuid', (c) => c.references('profiles.id'))
    .execute();
  await db.schema
    .createIndex('profiles_agency_idx')
    .on('profiles')
    .columns(['agency_id', 'created_at'])
    .where(sql.ref('agency_id'), 'is not', null)
    .execute();
}
