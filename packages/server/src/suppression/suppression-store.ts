import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../storage/schema.js';

/**
 * The queries of accounts' own suppression lists (migration 0013): one row per number, and one
 * version per account that goes up with every change (`SuppressionLists` reloads on a new one).
 */

// Rows per statement: 2 parameters a row stays far below PostgreSQL's 65,535.
const CHUNK = 5000;
// Numbers read per query when the whole list is read (loading it, exporting it).
const READ_BATCH = 20_000;

type Db = Kysely<Database> | Transaction<Database>;

export interface SuppressionSummaryRow {
  count: number;
  updatedAt: Date | null;
}

/** The list's version (0 for an account that never changed its list). */
export async function suppressionVersion(db: Db, profileId: string): Promise<number> {
  const row = await db
    .selectFrom('suppression_lists')
    .select('version')
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return row ? Number(row.version) : 0;
}

export async function suppressionSummary(db: Db, profileId: string): Promise<SuppressionSummaryRow> {
  const [counted, list] = await Promise.all([
    db
      .selectFrom('suppression_numbers')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('profile_id', '=', profileId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('suppression_lists')
      .select('updated_at')
      .where('profile_id', '=', profileId)
      .executeTakeFirst(),
  ]);
  return { count: Number(counted.count), updatedAt: list?.updated_at ?? null };
}

async function bumpVersion(trx: Transaction<Database>, profileId: string): Promise<void> {
  await trx
    .insertInto('suppression_lists')
    .values({ profile_id: profileId, version: 1 })
    .onConflict((oc) =>
      oc
        .column('profile_id')
        .doUpdateSet({ version: sql`suppression_lists.version + 1`, updated_at: sql`now()` }),
    )
    .execute();
}

async function insertNumbers(trx: Transaction<Database>, profileId: string, numbers: readonly number[]) {
  let added = 0;
  for (let at = 0; at < numbers.length; at += CHUNK) {
    const rows = numbers.slice(at, at + CHUNK).map((number) => ({ profile_id: profileId, number }));
    const inserted = await trx
      .insertInto('suppression_numbers')
      .values(rows)
      .onConflict((oc) => oc.columns(['profile_id', 'number']).doNothing())
      .returning('number')
      .execute();
    added += inserted.length;
  }
  return added;
}

async function deleteNumbers(trx: Transaction<Database>, profileId: string, numbers: readonly number[]) {
  let removed = 0;
  for (let at = 0; at < numbers.length; at += CHUNK) {
    const deleted = await trx
      .deleteFrom('suppression_numbers')
      .where('profile_id', '=', profileId)
      .where('number', 'in', numbers.slice(at, at + CHUNK))
      .returning('number')
      .execute();
    removed += deleted.length;
  }
  return removed;
}

/** Adds numbers (ten digits as integers, no duplicates); answers how many were new. */
export function addSuppressedNumbers(db: Kysely<Database>, profileId: string, numbers: readonly number[]) {
  return db.transaction().execute(async (trx) => {
    const added = await insertNumbers(trx, profileId, numbers);
    if (added > 0) await bumpVersion(trx, profileId);
    return added;
  });
}

/** Removes numbers; answers how many were on the list. */
export function removeSuppressedNumbers(db: Kysely<Database>, profileId: string, numbers: readonly number[]) {
  return db.transaction().execute(async (trx) => {
    const removed = await deleteNumbers(trx, profileId, numbers);
    if (removed > 0) await bumpVersion(trx, profileId);
    return removed;
  });
}

/**
 * Makes `numbers` the whole list, in one transaction: numbers kept keep the time they were added.
 * Answers how many were added and how many removed.
 */
export function replaceSuppressedNumbers(
  db: Kysely<Database>,
  profileId: string,
  numbers: readonly number[],
): Promise<{ added: number; removed: number }> {
  return db.transaction().execute(async (trx) => {
    const wanted = new Set(numbers);
    const gone: number[] = [];
    for await (const batch of batchesOf(trx, profileId)) {
      for (const number of batch) if (!wanted.has(number)) gone.push(number);
    }
    const removed = await deleteNumbers(trx, profileId, gone);
    const added = await insertNumbers(trx, profileId, numbers);
    if (added + removed > 0) await bumpVersion(trx, profileId);
    return { added, removed };
  });
}

/** Every number of the list, ascending, in batches: for loading it into memory and for exports. */
export async function* suppressedNumbers(db: Db, profileId: string): AsyncGenerator<number[]> {
  yield* batchesOf(db, profileId);
}

/** The account's numbers above `after`, ascending, one batch; the caller picks the columns. */
const batchAfter = (db: Db, profileId: string, after: number) =>
  db
    .selectFrom('suppression_numbers')
    .where('profile_id', '=', profileId)
    .where('number', '>', after)
    .orderBy('number')
    .limit(READ_BATCH);

/** Reads batch after batch, each starting above the last number read, until a short one. */
async function* inBatches<R extends { number: unknown }>(
  read: (after: number) => Promise<R[]>,
): AsyncGenerator<R[]> {
  let after = -1;
  for (;;) {
    const rows = await read(after);
    if (rows.length === 0) return;
    yield rows;
    after = Number(rows[rows.length - 1]!.number);
    if (rows.length < READ_BATCH) return;
  }
}

async function* batchesOf(db: Db, profileId: string): AsyncGenerator<number[]> {
  const read = (after: number) => batchAfter(db, profileId, after).select('number').execute();
  for await (const rows of inBatches(read)) yield rows.map((row) => Number(row.number));
}

/** Every number with the time it was added, ascending, in batches: the export. */
export async function* suppressedEntries(
  db: Db,
  profileId: string,
): AsyncGenerator<{ number: number; addedAt: Date }[]> {
  const read = (after: number) => batchAfter(db, profileId, after).select(['number', 'added_at']).execute();
  for await (const rows of inBatches(read)) {
    yield rows.map((row) => ({ number: Number(row.number), addedAt: row.added_at }));
  }
}

/** One page of the list in number order; `digits` keeps the numbers containing them. */
export async function listSuppressedNumbers(
  db: Db,
  profileId: string,
  { page, limit, digits }: { page: number; limit: number; digits: string },
): Promise<{ rows: { number: number; addedAt: Date }[]; total: number }> {
  let query = db.selectFrom('suppression_numbers').where('profile_id', '=', profileId);
  if (digits !== '') query = query.where(sql<string>`number::text`, 'like', `%${digits}%`);
  const [counted, rows] = await Promise.all([
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
    query
      .select(['number', 'added_at'])
      .orderBy('number')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
  ]);
  return {
    rows: rows.map((row) => ({ number: Number(row.number), addedAt: row.added_at })),
    total: Number(counted.count),
  };
}
