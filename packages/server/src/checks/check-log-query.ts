import {
  CHECK_LOG_CSV_HEADERS,
  type CheckLogEntry,
  type CheckLogFilter,
  type CheckLogPage,
  type CheckLogQuery,
} from '@scrub/contract';
import { safeCsvField } from '@scrub/engine';
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import { pagedListing } from '../storage/paged-listing.js';
import type { CheckLogTable, Database } from '../storage/schema.js';
import { ANSWER_DEFAULTS } from './check-log.js';

const DAY_MS = 86_400_000;

type CheckLogSelect = SelectQueryBuilder<Database, 'check_log', object>;

/** The account's checks that the filters keep. */
function filtered(db: Kysely<Database>, profileId: string, filter: CheckLogFilter): CheckLogSelect {
  let query = db.selectFrom('check_log').where('profile_id', '=', profileId);
  const number = filter.number ?? '';
  if (number !== '') {
    const digits = number.replace(/\D/g, '');
    const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('input', 'ilike', like(number)),
        ...(digits === '' ? [] : [eb('phone_number', 'like', like(digits))]),
      ]),
    );
  }
  const lineTypes = (filter.line_type ?? 'all').split(',').filter((t) => t !== '');
  if (!lineTypes.includes('all')) query = query.where('line_type', 'in', lineTypes);
  if (filter.dnc === '1') query = query.where('dnc', '=', true);
  if (filter.dnc === '0') query = query.where('dnc', '=', false);
  if (filter.from) query = query.where('checked_at', '>=', new Date(`${filter.from}T00:00:00Z`));
  if (filter.to)
    query = query.where('checked_at', '<', new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS));
  if (filter.source) query = query.where('via', '=', filter.source);
  return query;
}

function entryOf(row: Selectable<CheckLogTable>): CheckLogEntry {
  return {
    id: String(row.id),
    checked_at: row.checked_at.toISOString(),
    input: row.input,
    phone_number: row.phone_number,
    line_type: row.line_type,
    dnc: row.dnc === null ? null : row.dnc ? 1 : 0,
    cached: row.cached,
    credits: row.credits,
    kind: row.kind,
    source: row.via,
    api_key_id: row.api_key_id,
    acting_admin_id: row.actor_profile_id,
    answer: { ...ANSWER_DEFAULTS, ...(JSON.parse(row.answer) as Record<string, unknown>) },
  };
}

/** One page of the log, newest first. */
export async function listChecks(
  db: Kysely<Database>,
  profileId: string,
  query: CheckLogQuery,
): Promise<CheckLogPage> {
  const base = filtered(db, profileId, query);
  const { rows, ...counts } = await pagedListing(
    (limit, offset) =>
      base
        .selectAll()
        .orderBy('checked_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
    () => base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
    query,
  );
  return { checks: rows.map(entryOf), ...counts };
}

function csvLine(entry: CheckLogEntry): string {
  const dnc = entry.dnc === null ? '' : String(entry.dnc);
  return `${[
    entry.checked_at,
    entry.input,
    entry.phone_number,
    entry.line_type,
    dnc,
    entry.cached ? '1' : '0',
    String(entry.credits),
    entry.kind,
    entry.source,
    entry.api_key_id ?? '',
    entry.acting_admin_id ?? '',
  ]
    .map(safeCsvField)
    .join(',')}\r\n`;
}

const CSV_PAGE = 5000;

/** The filtered log as CSV text, newest first, read a page at a time (keyset: no offset). */
export async function* checksCsv(
  db: Kysely<Database>,
  profileId: string,
  filter: CheckLogFilter,
): AsyncGenerator<string> {
  yield `${CHECK_LOG_CSV_HEADERS.join(',')}\r\n`;
  let after: { checkedAt: Date; id: number } | null = null;
  for (;;) {
    let query = filtered(db, profileId, filter);
    if (after) {
      const { checkedAt, id } = after;
      query = query.where((eb) =>
        eb.or([
          eb('checked_at', '<', checkedAt),
          eb.and([eb('checked_at', '=', checkedAt), eb('id', '<', id)]),
        ]),
      );
    }
    const rows = await query
      .selectAll()
      .orderBy('checked_at', 'desc')
      .orderBy('id', 'desc')
      .limit(CSV_PAGE)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((row) => csvLine(entryOf(row))).join('');
    const last = rows[rows.length - 1]!;
    after = { checkedAt: last.checked_at, id: Number(last.id) };
    if (rows.length < CSV_PAGE) return;
  }
}
