import { type Kysely, sql } from 'kysely';

/**
 * Bulk jobs, which are also the queue: a worker claims the oldest `queued` job (or a `processing`
 * one whose worker stopped beating) with `FOR UPDATE SKIP LOCKED`, so any number of worker
 * processes share one table without taking the same job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_jobs')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('profile_id', 'uuid', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('file_reference', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_method', 'text', (c) => c.notNull().check(sql`file_method in ('api', 'upload')`))
    .addColumn('phone_col', 'jsonb', (c) => c.notNull())
    .addColumn('header_row', 'boolean', (c) => c.notNull())
    .addColumn('mapping', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('awaiting_upload', 'queued', 'processing', 'completed', 'failed')`),
    )
    .addColumn('upload_key', 'text', (c) => c.notNull())
    .addColumn('upload_expires_at', 'timestamptz')
    .addColumn('result_key', 'text')
    .addColumn('total_rows', 'integer')
    .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_charged', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_reversed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('line_types', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('dnc_status', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('file_message', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worker_id', 'text')
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('bulk_jobs_queue_idx')
    .on('bulk_jobs')
    .columns(['status', 'submitted_at'])
    .where(sql.ref('status'), 'in', sql`('queued', 'processing')`)
    .execute();
  await db.schema
    .createIndex('bulk_jobs_profile_idx')
    .on('bulk_jobs')
    .columns(['profile_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_jobs').execute();
}
