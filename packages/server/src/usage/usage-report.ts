import type { UsageFigures, UsageReport } from '@scrub/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { UsageOwner } from './usage-accounts.js';
import { addFigures, addPart, emptyFigures, finish } from './usage-figures.js';
import { checkParts, creditParts, jobParts } from './usage-queries.js';
import type { UsageRange } from './usage-range.js';

/** Each account's figures by interval (every interval present, zeros where nothing happened). */
export interface UsageTable {
  range: UsageRange;
  owners: UsageOwner[];
  /** By account id, then by interval start. */
  figures: Map<string, Map<string, UsageFigures>>;
}

/** Reads the accounts' checks, jobs and ledger over the range: three grouped queries. */
export async function usageTable(
  db: Kysely<Database>,
  owners: UsageOwner[],
  range: UsageRange,
): Promise<UsageTable> {
  const figures = new Map(
    owners.map((owner) => [owner.id, new Map(range.starts.map((start) => [start, emptyFigures()]))]),
  );
  const ids = owners.map((owner) => owner.id);
  const parts = await Promise.all([
    checkParts(db, ids, range),
    jobParts(db, ids, range),
    creditParts(db, ids, range),
  ]);
  for (const { profileId, start, part } of parts.flat()) {
    const interval = figures.get(profileId)?.get(start);
    if (interval) addPart(interval, part);
  }
  for (const byStart of figures.values()) for (const interval of byStart.values()) finish(interval);
  return { range, owners, figures };
}

/** The sum of several figures. */
export function sumOf(all: Iterable<UsageFigures>): UsageFigures {
  const sum = emptyFigures();
  for (const figures of all) addFigures(sum, figures);
  return finish(sum);
}

/** The total of every account counted, by interval. */
export function totalByInterval(table: UsageTable): Map<string, UsageFigures> {
  const accounts = [...table.figures.values()];
  return new Map(
    table.range.starts.map((start) => [start, sumOf(accounts.map((byStart) => byStart.get(start)!))]),
  );
}

/** `GET /usage`'s answer. */
export function usageReport(table: UsageTable): UsageReport {
  const { range, owners } = table;
  const totals = totalByInterval(table);
  return {
    from: range.from,
    to: range.to,
    interval: range.interval,
    accounts: owners.map((owner) => ({ ...owner, figures: sumOf(table.figures.get(owner.id)!.values()) })),
    intervals: range.starts.map((start) => ({ start, ...totals.get(start)! })),
    total: sumOf(totals.values()),
  };
}
