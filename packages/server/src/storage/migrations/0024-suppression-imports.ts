import { type Kysely, sql } from 'kysely';

/**
 * Suppression imports by upload (`suppression/suppression-imports.ts`): a CSV too large to send
 * inline is PUT to an upload URL, then imported. A row is how to read the file and where it is,
 * from the upload URL's grant until the import (or the expiry sweep) removes it with its file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('suppression_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('merge', 'replace')`))
    /** The phone column: its header text (a JSON string) or 0-based position (a JSON number). */
    .addColumn('phone_col', 'jsonb', (c) => c.notNull())
    .addColumn('header', 'boolean')
    .addColumn('upload_key', 'text', (c) => c.notNull())
    .addColumn('upload_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('suppression_imports_expiry_idx')
    .on('suppression_imports')
    .column('upload_expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('suppression_imports').execute();
}
