import {
  CREDIT_HISTORY_CSV_HEADERS,
  type CreditHistoryEntry,
  type CreditHistoryFilter,
  type CreditHistoryPage,
  type CreditHistoryQuery,
  ledgerEntryLabel,
} from '@scrub/contract';
import { safeCsvField } from '@scrub/engine';
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { pagedListing } from '../storage/paged-listing.js';
import type { CreditLedgerTable, Database } from '../storage/schema.js';

type LedgerSelect = SelectQueryBuilder<Database, 'credit_ledger', object>;

/** The first instant of a `YYYY-MM` month and of the next one, in UTC. */
function monthBounds(month: string): [Date, Date] {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return [new Date(Date.UTC(year, index - 1, 1)), new Date(Date.UTC(year, index, 1))];
}

/** The account's entries that the filter keeps. */
function filtered(db: Kysely<Database>, profileId: string, filter: CreditHistoryFilter): LedgerSelect {
  let query = db.selectFrom('credit_ledger').where('profile_id', '=', profileId);
  if (filter.month) {
    const [from, to] = monthBounds(filter.month);
    query = query.where('created_at', '>=', from).where('created_at', '<', to);
  }
  return query;
}

function entryOf(row: Selectable<CreditLedgerTable>): CreditHistoryEntry {
  return {
    id: String(row.id),
    created_at: row.created_at.toISOString(),
    kind: row.kind,
    label: ledgerEntryLabel(row),
    delta: row.delta,
    balance_after: row.balance_after,
    reference: row.reference,
    note: row.note,
    reason: row.reason,
  };
}

/** One page of the history, newest first (the ledger's order: the balance after each entry runs down it). */
export async function listCreditHistory(
  db: Kysely<Database>,
  profileId: string,
  query: CreditHistoryQuery,
): Promise<CreditHistoryPage> {
  const base = filtered(db, profileId, query);
  const { rows, ...counts } = await pagedListing(
    (limit, offset) => base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    () => base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    query,
  );
  return { entries: rows.map(entryOf), ...counts };
}

function csvLine(entry: CreditHistoryEntry): string {
  return `${[
    entry.created_at,
    entry.label,
    entry.kind,
    String(entry.delta),
    String(entry.balance_after),
    entry.reason ?? '',
    entry.reference ?? '',
    entry.note ?? '',
  ]
    .map(safeCsvField)
    .join(',')}\r\n`;
}

const CSV_PAGE = 5000;

/** The filtered history as CSV text, newest first, read a page at a time (keyset on the id). */
export async function* creditHistoryCsv(
  db: Kysely<Database>,
  profileId: string,
  filter: CreditHistoryFilter,
): AsyncGenerator<string> {
  yield `${CREDIT_HISTORY_CSV_HEADERS.join(',')}\r\n`;
  let before: number | null = null;
  for (;;) {
    let query = filtered(db, profileId, filter);
    if (before !== null) query = query.where('id', '<', before);
    const rows = await query.selectAll().orderBy('id', 'desc').limit(CSV_PAGE).execute();
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(entryOf(row))).join('');
    before = Number(rows[rows.length - 1]!.id);
    if (rows.length < CSV_PAGE) return;
  }
}
