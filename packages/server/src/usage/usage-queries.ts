import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { FiguresPart } from './usage-figures.js';
import type { UsageRange } from './usage-range.js';

/** One account's part of one interval. */
export interface UsagePart {
  profileId: string;
  start: string;
  part: FiguresPart;
}

/** The first instant of the interval a time falls in (UTC; weeks start on Monday): what rows are grouped by. */
function truncated(column: string, range: UsageRange): RawBuilder<Date> {
  const unit = range.interval === 'week' ? sql.lit('week') : sql.lit('day');
  return sql<Date>`date_trunc(${unit}, ${sql.ref(column)} at time zone 'UTC')`;
}

/** That interval's first day, `YYYY-MM-DD`: formatted once a group, not once a row. */
const dayOf = (interval: RawBuilder<Date>) => sql<string>`to_char(${interval}, 'YYYY-MM-DD')`;

const n = (value: unknown) => Number(value ?? 0);

/**
 * The phone log's checks (single, batch, test), summed by account, interval and line type: a range
 * scan of its `(profile_id, checked_at)` index.
 */
export async function checkParts(
  db: Kysely<Database>,
  ids: string[],
  range: UsageRange,
): Promise<UsagePart[]> {
  const interval = truncated('checked_at', range);
  const rows = await db
    .selectFrom('check_log')
    .select([
      'profile_id',
      'line_type',
      dayOf(interval).as('start'),
      sql<string>`count(*) filter (where kind <> 'batch' and via = 'api_key')`.as('api_key'),
      sql<string>`count(*) filter (where kind <> 'batch' and via <> 'api_key')`.as('dashboard'),
      sql<string>`count(*) filter (where kind = 'batch')`.as('batch'),
      sql<string>`count(*) filter (where dnc is not null)`.as('dnc_checked'),
      sql<string>`count(*) filter (where dnc)`.as('dnc_hits'),
      sql<string>`count(*) filter (where cached)`.as('cached'),
      sql<string>`count(*) filter (where not cached and credits = 0)`.as('free'),
    ])
    .where('profile_id', 'in', ids)
    .where('checked_at', '>=', range.since)
    .where('checked_at', '<', range.until)
    .groupBy(['profile_id', 'line_type', interval])
    .execute();
  return rows.map((row) => {
    const checks = n(row.api_key) + n(row.dashboard) + n(row.batch);
    return {
      profileId: row.profile_id,
      start: row.start,
      part: {
        apiKey: n(row.api_key),
        dashboard: n(row.dashboard),
        batch: n(row.batch),
        lineTypes: { [row.line_type]: checks },
        dncChecked: n(row.dnc_checked),
        dncHits: n(row.dnc_hits),
        cached: n(row.cached),
        free: n(row.free),
      },
    };
  });
}

/**
 * Bulk jobs scrubbed in the range (by when they completed), with their rows, line types and DNC
 * answers. Imported already-scrubbed files (nothing looked up: `numbers_checked` null) are not usage.
 */
export async function jobParts(db: Kysely<Database>, ids: string[], range: UsageRange): Promise<UsagePart[]> {
  const rows = await db
    .selectFrom('bulk_jobs')
    .select([
      'profile_id',
      'processed_rows',
      'line_types',
      'dnc_status',
      dayOf(truncated('completed_at', range)).as('start'),
    ])
    .where('profile_id', 'in', ids)
    .where('status', '=', 'completed')
    .where('numbers_checked', 'is not', null)
    .where('completed_at', '>=', range.since)
    .where('completed_at', '<', range.until)
    .execute();
  return rows.map((row) => {
    const dnc = row.dnc_status;
    return {
      profileId: row.profile_id,
      start: row.start,
      part: {
        bulk: row.processed_rows,
        lineTypes: row.line_types,
        dncChecked: n(dnc.clean) + n(dnc.dnc),
        dncHits: n(dnc.dnc),
        jobs: 1,
      },
    };
  });
}

/**
 * Credits spent (checks and bulk charges less what was given back) and bought (purchases, bonuses,
 * subscription grants), from the ledger: a range scan of its `(profile_id, created_at)` index.
 */
export async function creditParts(
  db: Kysely<Database>,
  ids: string[],
  range: UsageRange,
): Promise<UsagePart[]> {
  const interval = truncated('created_at', range);
  const rows = await db
    .selectFrom('credit_ledger')
    .select([
      'profile_id',
      dayOf(interval).as('start'),
      sql<string>`coalesce(-sum(delta) filter (where kind in ('check', 'bulk_charge', 'reversal')), 0)`.as(
        'spent',
      ),
      sql<string>`coalesce(sum(delta) filter (where kind in ('purchase', 'bonus', 'subscription_grant')), 0)`.as(
        'bought',
      ),
    ])
    .where('profile_id', 'in', ids)
    .where('created_at', '>=', range.since)
    .where('created_at', '<', range.until)
    .groupBy(['profile_id', interval])
    .execute();
  return rows.map((row) => ({
    profileId: row.profile_id,
    start: row.start,
    part: { spent: n(row.spent), bought: n(row.bought) },
  }));
}
