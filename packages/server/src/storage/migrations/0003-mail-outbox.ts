import { type Kysely, sql } from 'kysely';

/** Every e-mail the service sends, kept whether or not an SMTP server was configured to deliver it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    // 'stored': kept only here (no SMTP configured); 'sending', then 'sent' or 'failed' with SMTP.
    .addColumn('delivery', 'text', (c) =>
      c.notNull().check(sql`delivery in ('stored', 'sending', 'sent', 'failed')`),
    )
    .addColumn('delivery_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('mail_outbox_to')
    .on('mail_outbox')
    .expression(sql`lower(to_address), id`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_outbox').execute();
}
