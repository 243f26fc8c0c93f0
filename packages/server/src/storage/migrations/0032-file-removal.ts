import { type Kysely, sql } from 'kysely';

/**
 * Data the customer can delete (issue 26, item 5). `bulk_jobs.files_removed_at`: when a file's
 * upload and result left the file store, and `files_removed_by` why (`retention`: older than
 * SCRUB_FILE_RETENTION_DAYS; `customer`: deleted by its owner; `account`: its account was deleted).
 * The row stays: the ledger and the proof of scrub need its counts and hashes. `profiles.deleted_at`:
 * a deleted account, its personal data replaced by a tombstone. The audit log stays append-only,
 * with one exception: an account's deletion replaces its e-mail in the rows that name it by the
 * tombstone (`deleted-<profile id>`), and nothing else in them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('bulk_jobs')
    .addColumn('files_removed_at', 'timestamptz')
    .addColumn('files_removed_by', 'text', (c) =>
      c.check(sql`files_removed_by in ('retention', 'customer', 'account')`),
    )
    .execute();
  await db.schema
    .createIndex('bulk_jobs_retention_idx')
    .on('bulk_jobs')
    .column('created_at')
    .where(sql.ref('files_removed_at'), 'is', null)
    .execute();
  await db.schema.alterTable('profiles').addColumn('deleted_at', 'timestamptz').execute();
  await sql`
    create or replace function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and new.id = old.id and new.at = old.at and new.action = old.action
        and new.actor_id is not distinct from old.actor_id
        and new.subject_id is not distinct from old.subject_id
        and new.detail = old.detail
        and new.request_id is not distinct from old.request_id
        and (new.actor_email = old.actor_email or new.actor_email = 'deleted-' || old.actor_id)
        and (new.subject_email is not distinct from old.subject_email
          or new.subject_email = 'deleted-' || old.subject_id)
      then
        return new;
      end if;
      raise exception 'the audit log is append-only';
    end;
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the audit log is append-only';
    end;
    $$`.execute(db);
  await db.schema.alterTable('profiles').dropColumn('deleted_at').execute();
  await db.schema.dropIndex('bulk_jobs_retention_idx').execute();
  await db.schema
    .alterTable('bulk_jobs')
    .dropColumn('files_removed_at')
    .dropColumn('files_removed_by')
    .execute();
}
