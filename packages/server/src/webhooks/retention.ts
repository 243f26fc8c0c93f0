import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.js';

/** How many events one sweep removes at most; the next sweep takes the rest. */
const BATCH = 1000;

/**
 * Removes webhook events made before `cutoff`, with their deliveries and every attempt (the
 * foreign keys cascade), unless a delivery of the event is still pending. Answers how many went.
 */
export async function removeOldWebhookEvents(db: Kysely<Database>, cutoff: Date): Promise<number> {
  const gone = await db
    .deleteFrom('webhook_events')
    .where(
      'id',
      'in',
      db
        .selectFrom('webhook_events as ev')
        .select('ev.id')
        .where('ev.created_at', '<', cutoff)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as d')
                .select(sql`1`.as('one'))
                .whereRef('d.event_id', '=', 'ev.id')
                .where('d.status', '=', 'pending'),
            ),
          ),
        )
        .orderBy('ev.created_at')
        .limit(BATCH),
    )
    .executeTakeFirst();
  return Number(gone.numDeletedRows);
}

/** The sweep the bulk worker's expiry runs: events older than `retentionDays`. */
export function webhookRetentionSweep(db: Kysely<Database>, retentionDays: number) {
  return {
    what: 'webhook events past their retention',
    remove: (now: Date) => removeOldWebhookEvents(db, new Date(now.getTime() - retentionDays * 86_400_000)),
  };
}
