import { z } from 'zod';
import { DncFilterSchema, LineTypeFilterQuerySchema } from './files.js';
import { pageQueryFields, pageSchema } from './paged-listing.js';
import { defineRoutes } from './route-spec.js';

/** How a check came in: an API key, a signed-in session (dashboard, `scrub login`), an admin acting as the account. */
export const CHECK_SOURCES = ['api_key', 'token', 'act_as'] as const;
export const CheckSourceSchema = z.enum(CHECK_SOURCES);
export type CheckSource = z.infer<typeof CheckSourceSchema>;

/** Which call made it: `GET /verify`, a number of a `POST /verify` batch, the API page's test check (`test=1`). */
export const CHECK_KINDS = ['single', 'batch', 'test'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** One check of the phone log. */
export const CheckLogEntrySchema = z
  .object({
    id: z.string(),
    checked_at: z.string(),
    /** The number as sent. */
    input: z.string(),
    /** E.164 when valid, else the input. */
    phone_number: z.string(),
    line_type: z.string(),
    /** 1 on a do-not-call list, 0 clean, null: no list covering the number was checked (as GET /verify). */
    dnc: z.union([z.literal(0), z.literal(1), z.null()]),
    cached: z.boolean(),
    /** Credits the check cost (0: invalid, cached, free test check or unlimited plan). */
    credits: z.number().int(),
    kind: z.enum(CHECK_KINDS),
    source: CheckSourceSchema,
    /** The API key's id when one was used. */
    api_key_id: z.string().nullable(),
    /** The admin's account id when an admin acted as the account. */
    acting_admin_id: z.string().nullable(),
    /** The answer's other fields: reasons, DNC sources and lists, data source, versions. */
    answer: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'CheckLogEntry' });
export type CheckLogEntry = z.infer<typeof CheckLogEntrySchema>;

const DaySchema = z.iso.date('must be a date, YYYY-MM-DD');

/** The log's filters, shared by the page and the CSV export. Dates are UTC days, both included. */
export const CheckLogFilterSchema = z.object({
  /** A part of the number, as sent or as E.164 (digits compared). */
  number: z.string().trim().max(32).optional(),
  line_type: LineTypeFilterQuerySchema.optional(),
  dnc: DncFilterSchema.optional(),
  from: DaySchema.optional(),
  to: DaySchema.optional(),
  source: CheckSourceSchema.optional(),
});
export type CheckLogFilter = z.infer<typeof CheckLogFilterSchema>;

const refineDates = <T extends { from?: string | undefined; to?: string | undefined }>(query: T) =>
  query.from === undefined || query.to === undefined || query.from <= query.to;
const datesMessage = { message: 'must not be before from', path: ['to'] };

/** `GET /checks`: newest first. */
export const CheckLogQuerySchema = CheckLogFilterSchema.extend({
  ...pageQueryFields('Checks'),
}).refine(refineDates, datesMessage);
export type CheckLogQuery = z.infer<typeof CheckLogQuerySchema>;

export const CheckLogPageSchema = pageSchema('CheckLogPage', 'checks', CheckLogEntrySchema);
export type CheckLogPage = z.infer<typeof CheckLogPageSchema>;

/** The CSV export's columns, in order. */
export const CHECK_LOG_CSV_HEADERS = [
  'Checked At',
  'Input',
  'Phone Number',
  'Line Type',
  'DNC',
  'Cached',
  'Credits',
  'Kind',
  'Source',
  'API Key Id',
  'Acting Admin Id',
] as const;

export const checksRoutes = defineRoutes('checks', {
  listChecks: {
    method: 'GET',
    path: '/checks',
    auth: 'user',
    errors: [],
    summary:
      'The phone log: every single check of the account (GET /verify, each number of a batch, the test check), newest first, kept SCRUB_CHECK_LOG_DAYS days; with Accept: text/csv, the CSV of GET /checks.csv (every matching check)',
    query: CheckLogQuerySchema,
    response: CheckLogPageSchema,
    csvAnswer: true,
  },
  exportChecks: {
    method: 'GET',
    path: '/checks.csv',
    auth: 'user',
    errors: [],
    summary: 'The phone log as CSV, with the filters of GET /checks, newest first',
    query: CheckLogFilterSchema.refine(refineDates, datesMessage),
  },
});
