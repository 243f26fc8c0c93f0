import type { DncListDate } from '@scrub/contract';
import type { DncList, DncSet } from '@scrub/engine';

export const DAY_MS = 86_400_000;

/** The default of SCRUB_DNC_MAX_AGE_DAYS: the Telemarketing Sales Rule's 31 days. */
export const DEFAULT_DNC_MAX_AGE_DAYS = 31;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` as the moment the day starts (UTC); NaN for anything else, or a day that does not exist. */
export function dayStart(date: string): number {
  if (!DATE.test(date)) return Number.NaN;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(date) ? ms : Number.NaN;
}

/**
 * An account's own list (`internal`, `internal:<id>`) has no publisher and no release: the account
 * keeps it, so it is never too old. The age rule is for the lists others publish: federal, states.
 * An operator's flag list (`list:<name>`) is not a do-not-call list: its date is shown, never aged.
 */
export function isAgedList(name: string): boolean {
  return name !== 'internal' && !name.startsWith('internal:') && !name.startsWith('list:');
}

/**
 * One list's release date and age as of `now`. A federal or state list is stale once `maxAgeDays`
 * whole days have passed since its release date (00:00 UTC), the moment a proof's `valid_until`
 * names; one whose release date is not known (imported before dates were recorded) is stale too,
 * never fresh. An account's own list is never stale.
 */
export function listDate(list: DncList, now: Date, maxAgeDays: number): DncListDate {
  if (!isAgedList(list.name)) return { list: list.name, released_on: null, age_days: null, stale: false };
  const released = list.releasedOn === null ? Number.NaN : dayStart(list.releasedOn);
  if (Number.isNaN(released)) return { list: list.name, released_on: null, age_days: null, stale: true };
  const age = Math.floor((now.getTime() - released) / DAY_MS);
  return { list: list.name, released_on: list.releasedOn, age_days: age, stale: age >= maxAgeDays };
}

/** Each list's date in the set, in the set's order. */
export function listDates(set: DncSet, now: Date, maxAgeDays: number): DncListDate[] {
  return set.lists.map((list) => listDate(list, now, maxAgeDays));
}

/** When `list` goes stale (the first moment it is), or null for a list never stale or already unknown. */
export function staleFrom(list: DncList, maxAgeDays: number): Date | null {
  if (!isAgedList(list.name) || list.releasedOn === null) return null;
  const released = dayStart(list.releasedOn);
  return Number.isNaN(released) ? null : new Date(released + maxAgeDays * DAY_MS);
}

/** The age rule of one service: SCRUB_DNC_MAX_AGE_DAYS and the clock it counts by (tests move it). */
export interface DncAgeRule {
  maxAgeDays: number;
  now: () => Date;
}

export const DEFAULT_AGE_RULE: DncAgeRule = { maxAgeDays: DEFAULT_DNC_MAX_AGE_DAYS, now: () => new Date() };
