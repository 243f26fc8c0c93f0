import { type Kysely, sql, type Transaction } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import { countCredits } from '../metrics/service-metrics.js';
import type { Database, LedgerKind, ReversalReason } from '../storage/schema.js';

/** The largest balance the `integer` column holds. */
const MAX_BALANCE = 2_147_483_647;

export interface LedgerEntryInput {
  profileId: string;
  /** Credits added (positive) or taken (negative); never 0. */
  delta: number;
  kind: LedgerKind;
  /** What the entry is about: a job id, a payment id, a phone number. */
  reference?: string | null;
  note?: string | null;
  /** Why a reversal gave credits back (a job's credits are reconciled by it). */
  reason?: ReversalReason | null;
}

export interface LedgerEntryResult {
  entryId: number;
  /** The balance after this entry. */
  balance: number;
}

/** The 402 every charge answers when the balance is short: what it needs and what there is. */
export function insufficientCredits(required: number, available: number): ApiError {
  return new ApiError(
    'insufficient_credits',
    `Not enough credits: this needs ${required} and the account has ${available}.`,
    { credits_required: required, credits_available: available },
  );
}

/**
 * Writes one credit change: locks the profile row, refuses to overdraw, adds the entry and moves
 * the cached balance, all in one transaction, so the balance always equals the sum of the entries
 * however many changes race. Pass a transaction to make the change part of a larger one (a bulk
 * job submitted and charged together); the lock is then held until that transaction ends.
 */
export async function applyLedgerEntry(
  db: Kysely<Database>,
  entry: LedgerEntryInput,
): Promise<LedgerEntryResult> {
  const { delta } = entry;
  if (!Number.isSafeInteger(delta) || delta === 0 || Math.abs(delta) > MAX_BALANCE) {
    throw new RangeError(`A ledger entry moves a non-zero whole number of credits, not ${delta}`);
  }
  const write = async (trx: Transaction<Database> | Kysely<Database>) => {
    const profile = await trx
      .selectFrom('profiles')
      .select('credits')
      .where('id', '=', entry.profileId)
      .forUpdate()
      .executeTakeFirst();
    if (!profile) throw new ApiError('not_found', 'No such account.');
    const balance = profile.credits + delta;
    if (balance < 0) throw insufficientCredits(-delta, profile.credits);
    if (balance > MAX_BALANCE) {
      throw new ApiError(
        'bad_request',
        `A balance cannot exceed ${MAX_BALANCE.toLocaleString('en-US')} credits.`,
      );
    }
    await trx
      .updateTable('profiles')
      .set({ credits: balance, updated_at: new Date() })
      .where('id', '=', entry.profileId)
      .execute();
    const row = await trx
      .insertInto('credit_ledger')
      .values({
        profile_id: entry.profileId,
        delta,
        balance_after: balance,
        kind: entry.kind,
        reference: entry.reference ?? null,
        note: entry.note ?? null,
        reason: entry.reason ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { entryId: row.id, balance };
  };
  const result = await (db.isTransaction ? write(db) : db.transaction().execute(write));
  countCredits(entry.kind, delta);
  return result;
}

/** The balance and the sum of the ledger's entries for a profile: always equal (audits and tests). */
export async function ledgerTotals(
  db: Kysely<Database>,
  profileId: string,
): Promise<{ balance: number; sum: number; entries: number }> {
  const row = await db
    .selectFrom('profiles')
    .leftJoin('credit_ledger', 'credit_ledger.profile_id', 'profiles.id')
    .select([
      'profiles.credits as balance',
      sql<number>`coalesce(sum(credit_ledger.delta), 0)::int8`.as('sum'),
      sql<number>`count(credit_ledger.id)::int8`.as('entries'),
    ])
    .where('profiles.id', '=', profileId)
    .groupBy('profiles.credits')
    .executeTakeFirstOrThrow();
  return row;
}
