import { randomBytes } from 'node:crypto';
import {
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@scrub/contract';
import { type ExpressionBuilder, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../storage/schema.js';

type Db = Kysely<Database> | Transaction<Database>;
export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export function endpointOf(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    created_at: row.created_at.toISOString(),
  };
}

/** Registers an endpoint; at most MAX_WEBHOOK_ENDPOINTS per account (counted under the account's lock). */
export async function createEndpoint(
  db: Kysely<Database>,
  input: { profileId: string; url: string; events: string[]; description: string },
): Promise<EndpointRow> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('profiles').select('id').where('id', '=', input.profileId).forUpdate().execute();
    const { count } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('profile_id', '=', input.profileId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ApiError(
        'conflict',
        `An account may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; remove one first (scrub webhooks remove <id>).`,
      );
    }
    return trx
      .insertInto('webhook_endpoints')
      .values({
        id: newId('we'),
        profile_id: input.profileId,
        url: input.url,
        events: JSON.stringify(input.events),
        description: input.description,
        secret: newSigningSecret(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export function listEndpoints(db: Db, profileId: string): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('profile_id', '=', profileId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The statements' filter: this endpoint, when it is the account's. */
const ownEndpoint =
  (profileId: string, endpointId: string) => (eb: ExpressionBuilder<Database, 'webhook_endpoints'>) =>
    eb.and({ id: endpointId, profile_id: profileId });

/** The row a statement on the account's endpoint found, or a 404 (another account's endpoint is not found either). */
async function foundEndpoint(
  row: Promise<EndpointRow | undefined>,
  endpointId: string,
): Promise<EndpointRow> {
  const found = await row;
  if (!found) throw new ApiError('not_found', `No webhook endpoint ${endpointId}.`);
  return found;
}

/** The account's endpoint, or a 404. */
export function getOwnEndpoint(db: Db, profileId: string, endpointId: string): Promise<EndpointRow> {
  const row = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where(ownEndpoint(profileId, endpointId))
    .executeTakeFirst();
  return foundEndpoint(row, endpointId);
}

export function removeEndpoint(db: Db, profileId: string, endpointId: string): Promise<EndpointRow> {
  const row = db
    .deleteFrom('webhook_endpoints')
    .where(ownEndpoint(profileId, endpointId))
    .returningAll()
    .executeTakeFirst();
  return foundEndpoint(row, endpointId);
}

/**
 * A new signing secret; the one it replaces keeps signing beside it for `graceSeconds` (none when
 * 0). A secret already in its grace is dropped: only the last two secrets ever sign.
 */
export function rotateSecret(
  db: Db,
  profileId: string,
  endpointId: string,
  graceSeconds: number,
): Promise<EndpointRow> {
  const row = db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      secret: newSigningSecret(),
      previous_secret: graceSeconds > 0 ? eb.ref('secret') : null,
      previous_secret_expires_at:
        graceSeconds > 0 ? sql<Date>`now() + make_interval(secs => ${graceSeconds})` : null,
    }))
    .where(ownEndpoint(profileId, endpointId))
    .returningAll()
    .executeTakeFirst();
  return foundEndpoint(row, endpointId);
}

export interface RecordedEvent {
  eventId: string;
  deliveryIds: string[];
}

/**
 * Writes an event and one pending delivery per endpoint that takes it (all of the account's
 * endpoints subscribed to `type`, or just `onlyEndpointId`). Call it inside the transaction that
 * makes the event true, so both are kept or neither.
 */
export async function recordEvent(
  trx: Db,
  input: {
    profileId: string;
    type: string;
    /** The event's data, or what makes it: made only when an endpoint takes the event. */
    data: Record<string, unknown> | (() => Promise<Record<string, unknown>>);
    retryForSeconds: number;
    onlyEndpointId?: string;
    /**
     * Keeps the deliverer loop off the new deliveries this long: the caller attempts them itself
     * (the test event, answered with its first attempt); if it dies doing so, the loop takes over.
     */
    heldForSeconds?: number;
  },
): Promise<RecordedEvent | null> {
  let query = trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('profile_id', '=', input.profileId);
  if (input.onlyEndpointId) query = query.where('id', '=', input.onlyEndpointId);
  const endpoints = (await query.execute()).filter(
    (endpoint) => input.onlyEndpointId || endpoint.events.includes(input.type),
  );
  if (endpoints.length === 0) return null;
  const created = new Date();
  const eventId = newId('evt');
  const body = JSON.stringify({
    id: eventId,
    type: input.type,
    created: Math.floor(created.getTime() / 1000),
    data: typeof input.data === 'function' ? await input.data() : input.data,
  });
  await trx
    .insertInto('webhook_events')
    .values({ id: eventId, profile_id: input.profileId, type: input.type, body, created_at: created })
    .execute();
  const giveUpAt = new Date(created.getTime() + input.retryForSeconds * 1000);
  const deliveries = endpoints.map((endpoint) => ({
    id: newId('wd'),
    event_id: eventId,
    endpoint_id: endpoint.id,
    status: 'pending' as const,
    next_attempt_at: new Date(created.getTime() + (input.heldForSeconds ?? 0) * 1000),
    give_up_at: giveUpAt,
    created_at: created,
  }));
  await trx.insertInto('webhook_deliveries').values(deliveries).execute();
  return { eventId, deliveryIds: deliveries.map((d) => d.id) };
}

/** What an attempt needs: where, with which secrets (the newest first), and the body as the event stored it. */
export interface DueDelivery {
  id: string;
  attempts: number;
  give_up_at: Date;
  url: string;
  secrets: string[];
  body: string;
}

/**
 * Takes up to `limit` due deliveries (or the one named), moving their `next_attempt_at` ahead by
 * `leaseSeconds` so that no other process takes them while they are sent; a process that dies
 * mid-send leaves them to be taken again when the lease ends. `FOR UPDATE SKIP LOCKED`: any
 * number of processes share the outbox.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  options: { limit: number; leaseSeconds: number; deliveryId?: string },
): Promise<DueDelivery[]> {
  return db.transaction().execute(async (trx) => {
    let due = trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .orderBy('next_attempt_at')
      .limit(options.limit)
      .forUpdate()
      .skipLocked();
    due = options.deliveryId
      ? due.where('id', '=', options.deliveryId)
      : due.where('next_attempt_at', '<=', sql<Date>`now()`);
    const ids = (await due.execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: sql<Date>`now() + make_interval(secs => ${options.leaseSeconds})` })
      .where('id', 'in', ids)
      .execute();
    const rows = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .select(['d.id', 'd.attempts', 'd.give_up_at', 'e.url', 'e.secret', 'ev.body'])
      // The rotated-out secret while its grace lasts, by the database's clock.
      .select(
        sql<string | null>`case when e.previous_secret_expires_at > now() then e.previous_secret end`.as(
          'previous_secret',
        ),
      )
      .where('d.id', 'in', ids)
      .execute();
    return rows.map(({ secret, previous_secret, ...row }) => ({
      ...row,
      secrets: previous_secret ? [secret, previous_secret] : [secret],
    }));
  });
}

export interface AttemptOutcome {
  attemptedAt: Date;
  statusCode: number | null;
  responseMs: number | null;
  error: string | null;
  delivered: boolean;
}

/**
 * Logs an attempt and settles the delivery: delivered, retried at `retryAt`, or failed when
 * `retryAt` is null (past its day). A delivery settled meanwhile (its endpoint removed) is left alone.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  delivery: DueDelivery,
  outcome: AttemptOutcome,
  retryAt: Date | null,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('webhook_deliveries')
      .select(['attempts', 'status'])
      .where('id', '=', delivery.id)
      .forUpdate()
      .executeTakeFirst();
    if (current?.status !== 'pending') return;
    const attempt = current.attempts + 1;
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: delivery.id,
        attempt,
        attempted_at: outcome.attemptedAt,
        status_code: outcome.statusCode,
        response_ms: outcome.responseMs,
        error: outcome.error,
      })
      .execute();
    const ended = outcome.delivered || retryAt === null;
    await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts: attempt,
        status: outcome.delivered ? 'delivered' : retryAt === null ? 'failed' : 'pending',
        next_attempt_at: retryAt ?? outcome.attemptedAt,
        ended_at: ended ? new Date() : null,
      })
      .where('id', '=', delivery.id)
      .execute();
  });
}

/** An endpoint's deliveries, newest first, each with every attempt. */
export async function listDeliveries(
  db: Kysely<Database>,
  endpointId: string,
  page: number,
  limit: number,
  only?: string,
): Promise<WebhookDeliveryList> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .where('d.endpoint_id', '=', endpointId);
  if (only) query = query.where('d.id', '=', only);
  const { count } = await query
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .select(['d.id', 'd.event_id', 'ev.type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.created_at'])
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('attempt')
          .execute();
  const deliveries = rows.map((row): WebhookDelivery => {
    const log = attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        attempted_at: attempt.attempted_at.toISOString(),
        status_code: attempt.status_code,
        response_ms: attempt.response_ms,
        error: attempt.error,
      }));
    const last = log.at(-1);
    return {
      id: row.id,
      event_id: row.event_id,
      type: row.type,
      status: row.status,
      attempts: row.attempts,
      status_code: last?.status_code ?? null,
      response_ms: last?.response_ms ?? null,
      error: last?.error ?? null,
      next_retry_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
      created_at: row.created_at.toISOString(),
      log,
    };
  });
  const total = Number(count);
  return { deliveries, page, total_pages: Math.max(1, Math.ceil(total / limit)), total_count: total };
}
