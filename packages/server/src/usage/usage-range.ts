import { MAX_USAGE_INTERVALS, type UsageInterval, type UsageQuery } from '@scrub/contract';
import { ApiError } from '../errors/api-error.js';

const DAY_MS = 86_400_000;

/** The days asked about and how they are summed; `starts` are the intervals' first days, in order. */
export interface UsageRange {
  from: string;
  to: string;
  interval: UsageInterval;
  /** The first instant counted and the first one after the range. */
  since: Date;
  until: Date;
  starts: string[];
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The first day of the interval holding `day`: itself, or its week's Monday (as PostgreSQL's `date_trunc('week')`). */
export function intervalStart(day: string, interval: UsageInterval): string {
  if (interval === 'day') return day;
  const ms = msOf(day);
  const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7;
  return dayOf(ms - sinceMonday * DAY_MS);
}

/**
 * The range of a query: to defaults to today (UTC), from to 30 days (or 12 weeks) before it. More
 * than `MAX_USAGE_INTERVALS` intervals is refused.
 */
export function usageRange(query: UsageQuery, now = new Date()): UsageRange {
  const { interval } = query;
  const to = query.to ?? dayOf(now.getTime());
  const from =
    query.from ??
    (interval === 'day'
      ? dayOf(msOf(to) - 29 * DAY_MS)
      : intervalStart(dayOf(msOf(to) - 11 * 7 * DAY_MS), 'week'));
  if (from > to) throw rangeError('must not be after to');
  const step = interval === 'day' ? DAY_MS : 7 * DAY_MS;
  const first = msOf(intervalStart(from, interval));
  const count = Math.floor((msOf(to) - first) / step) + 1;
  if (count > MAX_USAGE_INTERVALS)
    throw rangeError(`covers ${count} ${interval}s: at most ${MAX_USAGE_INTERVALS} in one answer`);
  const starts = Array.from({ length: count }, (_, i) => dayOf(first + i * step));
  return { from, to, interval, since: new Date(msOf(from)), until: new Date(msOf(to) + DAY_MS), starts };
}

function rangeError(message: string): ApiError {
  return new ApiError('validation_failed', `from ${message}`, {
    issues: [{ location: 'query', path: 'from', message }],
  });
}
