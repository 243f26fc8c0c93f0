import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Each account's own suppression list (internal DNC), kept by the account itself
 * (`suppression/suppression-store.ts`). `suppression_lists.version` goes up with every change, so
 * a process holding the list in memory knows when its copy is old.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('suppression_lists')
    .addColumn('profile_id', 'uuid', (c) => c.primaryKey().references('profiles.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('suppression_numbers')
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    /** The ten national digits as an integer: 2015550123. */
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('suppression_numbers_pkey', ['profile_id', 'number'])
    .execute();
}
