import { type Kysely, sql } from 'kysely';

/**
 * A leaner phone log (issue 29): a batch of 10,000 numbers writes 10,000 rows, and on the embedded
 * database their writing cost five times the checks themselves. The answer is kept as JSON text
 * (parsed when listed, never queried inside) with its null and empty fields left out, and the two
 * indexes the listing does not use go: the number search is a substring match (no b-tree helps
 * it), and the retention sweep takes the oldest rows by id, the order they were written in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table check_log alter column answer type text using answer::text`.execute(db);
  await db.schema.dropIndex('check_log_profile_number_idx').execute();
  await db.schema.dropIndex('check_log_checked_at_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table check_log alter column answer type jsonb using answer::jsonb`.execute(db);
  await db.schema
    .createIndex('check_log_profile_number_idx')
    .on('check_log')
    .columns(['profile_id', 'phone_number'])
    .execute();
  await db.schema.createIndex('check_log_checked_at_idx').on('check_log').column('checked_at').execute();
}
