import { type Kysely, sql } from 'kysely';

/**
 * The admin area: an account can be disabled (never deleted), every token issued before
 * `tokens_valid_after` is refused (a password reset, a global sign-out, a disable), the last
 * sign-in is shown to admins, and the audit log records admin actions and act-as requests. The
 * audit log is append-only: a trigger refuses every UPDATE and DELETE, whoever sends them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('profiles')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('tokens_valid_after', 'timestamptz')
    .addColumn('last_sign_in_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('profiles_user_name_idx')
    .on('profiles')
    .expression(sql`lower(user_name)`)
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor_id', 'uuid', (c) => c.notNull().references('profiles.id'))
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'uuid', (c) => c.references('profiles.id'))
    .addColumn('subject_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('request_id', 'text')
    .execute();
  await db.schema
    .createIndex('audit_log_subject_idx')
    .on('audit_log')
    .columns(['subject_id', 'id'])
    .execute();
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the audit log is append-only';
    end;
    $$`.execute(db);
  await sql`
    create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);

  // The key act-as tokens are signed with: one per deployment, shared by every server process.
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
