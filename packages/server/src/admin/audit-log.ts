import type { AuditEntry } from '@scrub/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

export interface AuditInput {
  /** No `profileId` when no account acted (the payment provider: a refund made in its dashboard). */
  actor: { profileId: string | null; email: string };
  subject?: { profileId: string; email: string } | null;
  /** What was done: `user.create`, `credits.adjust`, `act_as.request`... */
  action: string;
  detail?: Record<string, unknown>;
  requestId?: string | null;
}

/** Appends one entry. There is no update or delete here, and the table's trigger refuses them anyway. */
export async function recordAudit(db: Kysely<Database>, input: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: input.actor.profileId,
      actor_email: input.actor.email,
      subject_id: input.subject?.profileId ?? null,
      subject_email: input.subject?.email ?? null,
      action: input.action,
      detail: JSON.stringify(input.detail ?? {}),
      request_id: input.requestId ?? null,
    })
    .execute();
}

/** Newest first, paged; optionally only the entries about one account. */
export async function listAudit(
  db: Kysely<Database>,
  query: { page: number; limit: number; subject_id?: string | undefined },
): Promise<{ entries: AuditEntry[]; page: number; total_pages: number; total_entries_count: number }> {
  let base = db.selectFrom('audit_log');
  if (query.subject_id) base = base.where('subject_id', '=', query.subject_id);
  const { count } = await base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const total = Number(count);
  return {
    entries: rows.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      actor_id: row.actor_id,
      actor_email: row.actor_email,
      subject_id: row.subject_id,
      subject_email: row.subject_email,
      action: row.action,
      detail: row.detail,
      request_id: row.request_id,
    })),
    page: query.page,
    total_pages: Math.max(1, Math.ceil(total / query.limit)),
    total_entries_count: total,
  };
}
