import type { Kysely } from 'kysely';

/**
 * The registry inbox's files (SCRUB_DNC_INBOX), one row per file content (its SHA-256): claimed by
 * the process that imports it (`importing`), then `imported` or `rejected`. The claim is what makes
 * an import happen once, whatever the number of worker processes, restarts, or drops of the same file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('registry_inbox_files')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('dataset', 'text')
    .addColumn('version', 'text')
    .addColumn('ftc_account', 'text')
    .addColumn('reason', 'text')
    .execute();
}
