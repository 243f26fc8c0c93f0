import { z } from 'zod';
import { defineRoutes } from './route-spec.js';
import { LINE_TYPES } from './verify.js';

/** How usage is summed: by UTC day, or by week (Monday to Sunday, UTC). */
export const USAGE_INTERVALS = ['day', 'week'] as const;
export type UsageInterval = (typeof USAGE_INTERVALS)[number];

/** At most this many intervals in one answer (a year of days; seven years of weeks). */
export const MAX_USAGE_INTERVALS = 366;

const DaySchema = z.iso.date('must be a date, YYYY-MM-DD');

/**
 * `GET /usage`. Dates are UTC days, both included; without them, the last 30 days (`day`) or the
 * last 12 weeks (`week`) to today. `account`: another account's usage, for an Agency (its own
 * clients) and for admins (any account).
 */
export const UsageQuerySchema = z
  .object({
    from: DaySchema.optional(),
    to: DaySchema.optional(),
    interval: z.enum(USAGE_INTERVALS).default('day'),
    account: z.uuid('must be an account id').optional(),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    message: 'must not be before from',
    path: ['to'],
  });
export type UsageQuery = z.infer<typeof UsageQuerySchema>;

const count = z.number().int();

/** What an account (or several) used over a time: the same figures for an interval and for the whole. */
export const UsageFiguresSchema = z
  .object({
    /**
     * Numbers checked, by how they came in: single checks with an API key (`GET /verify`, `scrub
     * check` with a key), single checks signed in (the dashboard, `scrub login`, an admin acting as
     * the account), the numbers of `POST /verify` batches, and the rows of bulk jobs scrubbed.
     */
    checks: z.object({
      api_key: count,
      dashboard: count,
      batch: count,
      bulk: count,
      total: count,
    }),
    /** Every number counted in `checks` by its line type. */
    line_types: z.record(z.string(), count),
    /** Numbers checked against a do-not-call list (`checked`), those on one (`hits`), and hits / checked (null: none checked). */
    dnc: z.object({ checked: count, hits: count, hit_rate: z.number().nullable() }),
    /**
     * Credits spent: checks and bulk charges, less what was given back (duplicates, invalid
     * numbers, failed jobs). Credits bought: purchases, their bonuses and subscription grants.
     */
    credits: z.object({ spent: count, bought: count }),
    /** Bulk jobs scrubbed (completed) in the time; imported already-scrubbed files are not counted. */
    jobs: count,
    /** Single and batch checks answered from the recent-answer cache, charged nothing. */
    cached: count,
    /** Single and batch checks that cost nothing otherwise: invalid numbers, test checks, unlimited plans. */
    free: count,
  })
  .meta({ id: 'UsageFigures' });
export type UsageFigures = z.infer<typeof UsageFiguresSchema>;

/** One day or week: `start` is its first day (a Monday for weeks; the first week may start before `from`). */
export const UsageIntervalSchema = UsageFiguresSchema.extend({ start: z.string() }).meta({
  id: 'UsageIntervalFigures',
});
export type UsageIntervalFigures = z.infer<typeof UsageIntervalSchema>;

/** An account whose usage is counted, with its own figures for the whole time. */
export const UsageAccountSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.string(),
    figures: UsageFiguresSchema,
  })
  .meta({ id: 'UsageAccount' });
export type UsageAccount = z.infer<typeof UsageAccountSchema>;

/**
 * `GET /usage`: the accounts counted (one; an Agency's own and its clients'), each with its
 * figures, and their total by interval and for the whole time.
 */
export const UsageReportSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    interval: z.enum(USAGE_INTERVALS),
    accounts: z.array(UsageAccountSchema),
    intervals: z.array(UsageIntervalSchema),
    total: UsageFiguresSchema,
  })
  .meta({ id: 'UsageReport' });
export type UsageReport = z.infer<typeof UsageReportSchema>;

/** The CSV export's columns, in order: one line per account and interval, then the total's (`All accounts`) when more than one account is counted. */
export const USAGE_CSV_HEADERS = [
  'Account',
  'Start',
  'Checks',
  'API Key',
  'Dashboard',
  'Batch',
  'Bulk Rows',
  ...LINE_TYPES.map((type) => `Line Type ${type}`),
  'DNC Checked',
  'DNC Hits',
  'DNC Hit Rate',
  'Credits Spent',
  'Credits Bought',
  'Jobs',
  'Cached',
  'Free',
] as const;

export const usageRoutes = defineRoutes('usage', {
  getUsage: {
    method: 'GET',
    path: '/usage',
    auth: 'user',
    errors: ['not_found'],
    summary:
      'Client Performance: checks by source, line-type mix, DNC hit rate, credits spent and bought, jobs, cached and free answers, by day or week. An Agency: its clients and the total; an admin: any account. With Accept: text/csv, the CSV of GET /usage.csv',
    query: UsageQuerySchema,
    response: UsageReportSchema,
    csvAnswer: true,
  },
  exportUsage: {
    method: 'GET',
    path: '/usage.csv',
    auth: 'user',
    errors: ['not_found'],
    summary:
      'GET /usage as CSV: one line per account and interval, and the total when several accounts are counted',
    query: UsageQuerySchema,
  },
});
