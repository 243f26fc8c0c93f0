import { type ColumnType, type Generated, type Kysely, sql } from 'kysely';
import type { HostDatabase } from './host-database.js';

/** A Stripe object as served: JSON with at least `id` and `object`. */
export type StripeObject = { id: string; object: string; [key: string]: unknown };

type ObjectsTable = {
  id: string;
  seq: Generated<number>;
  object: string;
  customer: string | null;
  email: string | null;
  lookup_key: string | null;
  due_at: number | null;
  data: ColumnType<StripeObject, string, string>;
  internal: ColumnType<Record<string, unknown>, string | undefined, string>;
};

type IdempotencyTable = {
  key: string;
  request: string;
  status: number | null;
  response: ColumnType<unknown, string | null, string>;
  created_at: Generated<Date>;
};

type DeliveriesTable = {
  event_id: string;
  url: string;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  delivered_at: Date | null;
  last_error: string | null;
};

export type LocalStripeTables = {
  local_stripe_objects: ObjectsTable;
  local_stripe_idempotency: IdempotencyTable;
  local_stripe_deliveries: DeliveriesTable;
};

export type LocalStripeDb = Kysely<LocalStripeTables>;

/**
 * Any database with this package's tables (see `schema.ts`), seen with those tables alone: the
 * host's own tables (a service's that keeps its state beside them) are none of this package's business.
 */
export const withLocalStripeTables = (db: HostDatabase): LocalStripeDb => db;

export interface StoredObject {
  data: StripeObject;
  internal: Record<string, unknown>;
}

export interface ListPage {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
}

/** Reads and writes Stripe objects; every call takes the executor (database or transaction) to run on. */
export const objectStore = {
  async get(db: LocalStripeDb, id: string, forUpdate = false): Promise<StoredObject | null> {
    let query = db.selectFrom('local_stripe_objects').select(['data', 'internal']).where('id', '=', id);
    if (forUpdate) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row ? { data: row.data, internal: row.internal } : null;
  },

  async put(
    db: LocalStripeDb,
    data: StripeObject,
    internal: Record<string, unknown> = {},
    dueAt: number | null = null,
  ): Promise<void> {
    const row = {
      id: data.id,
      object: data.object,
      customer: typeof data.customer === 'string' ? data.customer : null,
      email: typeof data.email === 'string' ? data.email.toLowerCase() : null,
      lookup_key: typeof data.lookup_key === 'string' ? data.lookup_key : null,
      due_at: dueAt,
      data: JSON.stringify(data),
      internal: JSON.stringify(internal),
    };
    await db
      .insertInto('local_stripe_objects')
      .values(row)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          customer: row.customer,
          email: row.email,
          lookup_key: row.lookup_key,
          due_at: row.due_at,
          data: row.data,
          internal: row.internal,
        }),
      )
      .execute();
  },

  /** Newest first, as Stripe lists; `filter` narrows by the indexed columns. */
  async list(
    db: LocalStripeDb,
    object: string,
    filter: {
      customer?: string;
      email?: string;
      lookupKeys?: string[];
      types?: string[];
      paymentIntent?: string;
      charge?: string;
    },
    page: ListPage,
  ): Promise<{ data: StripeObject[]; has_more: boolean }> {
    let query = db.selectFrom('local_stripe_objects').select(['data', 'seq']).where('object', '=', object);
    if (filter.customer !== undefined) query = query.where('customer', '=', filter.customer);
    if (filter.email !== undefined) query = query.where('email', '=', filter.email.toLowerCase());
    if (filter.lookupKeys !== undefined)
      query = query.where('lookup_key', 'in', filter.lookupKeys.length ? filter.lookupKeys : ['']);
    if (filter.types !== undefined)
      query = query.where(sql<string>`data->>'type'`, 'in', filter.types.length ? filter.types : ['']);
    if (filter.paymentIntent !== undefined)
      query = query.where(sql<string>`data->>'payment_intent'`, '=', filter.paymentIntent);
    if (filter.charge !== undefined) query = query.where(sql<string>`data->>'charge'`, '=', filter.charge);
    const cursor = page.startingAfter ?? page.endingBefore;
    if (cursor) {
      const at = db.selectFrom('local_stripe_objects').select('seq').where('id', '=', cursor);
      query = query.where('seq', page.startingAfter ? '<' : '>', at);
    }
    const rows = await query
      .orderBy('seq', page.endingBefore ? 'asc' : 'desc')
      .limit(page.limit + 1)
      .execute();
    const has_more = rows.length > page.limit;
    const kept = rows.slice(0, page.limit);
    if (page.endingBefore) kept.reverse();
    return { data: kept.map((r) => r.data), has_more };
  },

  /** Subscriptions whose period has ended by `now` (their customer's clock), oldest first. */
  async due(db: LocalStripeDb, now: number, customers?: string[]): Promise<string[]> {
    let query = db
      .selectFrom('local_stripe_objects')
      .select('id')
      .where('due_at', '<=', now)
      .where('object', '=', 'subscription');
    if (customers) query = query.where('customer', 'in', customers.length ? customers : ['']);
    const rows = await query.orderBy('due_at').execute();
    return rows.map((r) => r.id);
  },
};
