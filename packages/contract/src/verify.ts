import { z } from 'zod';
import { LineTypeProvenanceShape, LookupSchema } from './line-type-source.js';
import { ListNamesQuerySchema, ListNamesSchema, OperatorListAnswerSchema } from './operator-lists.js';
import { ConsentDateSchema, ReassignedFieldsSchema } from './reassigned.js';
import { defineRoutes } from './route-spec.js';

/**
 * `unknown_geographic`: a valid number in a geographic area code whose exchange the imported line-type
 * data does not cover (it is never guessed).
 */
export const LINE_TYPES = [
  'mobile',
  'landline',
  'voip',
  'toll_free',
  'invalid',
  'unknown_geographic',
] as const;
export const LineTypeSchema = z.enum(LINE_TYPES).meta({ id: 'LineType' });
export type LineType = z.infer<typeof LineTypeSchema>;

/** `GET /verify?p=`: one number. `k` is the API key, as the seed's API page documents it. */
export const VerifyQuerySchema = z.object({
  p: z
    .string({ error: 'p (the phone number) is required' })
    .min(1, 'p (the phone number) is required')
    .max(64, 'p is longer than any phone number'),
  k: z.string().max(200).optional(),
  /** `1`: answer with a signed statement of the answer (`proof`), at no extra charge. */
  proof: z.enum(['0', '1', 'true', 'false']).optional(),
  /** `YYYY-MM-DD`: also answer whether the number was reassigned since then (`reassigned`), at its price. */
  consent_date: ConsentDateSchema.optional(),
  /**
   * `carrier`: ask a live carrier lookup of the number (Twilio Lookup), charged as the operator
   * sets; refused when the service has none. Off unless asked.
   */
  lookup: LookupSchema.optional(),
  /** Operator lists to check (`litigators,other`), instead of the account's default; empty for none. */
  lists: ListNamesQuerySchema.optional(),
  /**
   * `1`: a test of one number, as the dashboard's API page makes. Free with an active subscription
   * (seed 001: up to 50 a day), otherwise charged as any check.
   */
  test: z.enum(['0', '1']).optional(),
});
export type VerifyQuery = z.infer<typeof VerifyQuerySchema>;

/**
 * One do-not-call list an answer rests on, with its date. `released_on`: the date of the list as
 * its publisher (the FTC, a state) released it, `YYYY-MM-DD`; null for an account's own list (never
 * stale) and for a list whose date is not known (then stale). `age_days`: whole days since then.
 * `stale`: past the service's maximum age (31 days by default, the Telemarketing Sales Rule's): the
 * list still flags the numbers it holds (`dnc: 1`), but its silence no longer makes a number clean.
 */
export const DncListDateSchema = z
  .object({
    list: z.string(),
    released_on: z.string().nullable(),
    age_days: z.number().int().nullable(),
    stale: z.boolean(),
  })
  .meta({ id: 'DncListDate' });
export type DncListDate = z.infer<typeof DncListDateSchema>;

export const VerifyResultSchema = z
  .object({
    phone_number: z.string().describe('E.164, or the input as given when it is not a number'),
    line_type: LineTypeSchema,
    ...LineTypeProvenanceShape,
    /**
     * 1: on a do-not-call list that counts for the caller. 0: a valid number on none of the lists
     * consulted (`dnc_lists_checked`, never empty then). null: not checked, because no loaded list
     * covers the number, or an invalid number on no list (nothing to call). Never read null as clean.
     */
    dnc: z.union([z.literal(0), z.literal(1), z.null()]),
    cached: z.boolean(),
    /** Omitted for unlimited users (seed document 2, API documentation). */
    credits_deducted: z.number().int().nonnegative().optional(),
    credits_remaining: z.number().int().nonnegative().optional(),
    /** A stable code (`area_code_not_in_service`, `not_a_us_number`...) when line_type is invalid. */
    invalid_reason: z.string().nullable(),
    /** The same reason as a sentence for people. */
    invalid_message: z.string().nullable(),
    /** Digits of an extension typed after the number: reported, not part of the check. */
    extension: z.string().nullable(),
    /** The lists holding the number: `federal`, `state:XX`, `internal:<account id>`. */
    dnc_sources: z.array(z.string()),
    /**
     * The lists consulted for this number: the loaded lists covering it (federal and the caller's
     * internal list cover every number, a state's list its own area codes) and any list holding it.
     * Empty when `dnc` is null.
     */
    dnc_lists_checked: z.array(z.string()),
    /**
     * The lists holding or covering the number, stale ones included, each with its release date and
     * age: what `dnc` rests on. A stale list's silence is why a number can answer `dnc: null` while a
     * list covering it is loaded. Empty for an invalid number on no list. Absent from older servers.
     */
    dnc_lists: z.array(DncListDateSchema).optional(),
    /**
     * The operator lists that count for this check (the request's `lists`, else the account's
     * default), each with whether it holds the number: risk flags beside `dnc`, never part of it.
     * Absent from older servers.
     */
    lists: z.array(OperatorListAnswerSchema).optional(),
    data_source: z.enum(['imported', 'sample']),
    dataset_versions: z.record(z.string(), z.string()),
    /** With `proof=1`: the answer signed, a compact JWS (see docs/proof-of-scrub.md). */
    proof: z.string().optional(),
    /**
     * IANA time zones of the number's area code (NANPA's report), several when the area code spans
     * zones; [] for invalid, toll-free and non-geographic numbers. The area code's zone, not where
     * the subscriber is.
     */
    timezones: z.array(z.string()),
    /**
     * Whether now (when answered, cached answers included) is inside the calling window, 08:00 to
     * 21:00 local time, in every one of `timezones`: the strictest answer. null when it cannot be
     * told (`callable_reason` says why); never true for what is not known.
     */
    callable_now: z.boolean().nullable(),
    /** Why `callable_now` is null, or false for a number reassigned since the consent date; null otherwise. */
    callable_reason: z.string().nullable(),
    ...ReassignedFieldsSchema.shape,
  })
  .meta({ id: 'VerifyResult' });
export type VerifyResult = z.infer<typeof VerifyResultSchema>;

/** The most numbers one `POST /verify` takes. */
export const MAX_BATCH_NUMBERS = 10_000;

/**
 * `POST /verify`: up to 10,000 numbers in one request, as JSON `{"phones": [...]}` or as a
 * `text/csv` body of one number per line (an optional first line without digits is a header).
 */
export const VerifyBatchBodySchema = z
  .object({
    phones: z
      .array(VerifyQuerySchema.shape.p.describe('a phone number, as written'))
      .min(1, 'phones must hold at least one number')
      .max(
        MAX_BATCH_NUMBERS,
        `phones holds at most ${MAX_BATCH_NUMBERS.toLocaleString('en-US')} numbers per request: split the list, or send a file as a bulk job`,
      ),
    /** One consent date for every number of the batch (`consent_date` of GET /verify). */
    consent_date: ConsentDateSchema.optional(),
    /** `carrier`: a live carrier lookup of each valid number, as `GET /verify?lookup=carrier`. */
    lookup: LookupSchema.optional(),
    /** Operator lists to check, instead of the account's default (see `VerifyQuerySchema.lists`). */
    lists: ListNamesSchema.optional(),
  })
  .strict();
export type VerifyBatchBody = z.infer<typeof VerifyBatchBodySchema>;

/** One answer of a batch: a single check's answer, with the input as sent. */
export const VerifyBatchItemSchema = VerifyResultSchema.extend({
  /** The number as sent, echoed. */
  input: z.string(),
});
export type VerifyBatchItem = z.infer<typeof VerifyBatchItemSchema>;

export const VerifyBatchResultSchema = z
  .object({
    /** One answer per number sent, in the order sent (duplicates answered each time). */
    results: z.array(VerifyBatchItemSchema),
    /**
     * Credits the batch took, as single checks would: one per distinct valid number not answered
     * from the cache; invalid numbers, repeats within the batch and cached answers are free.
     * Omitted for unlimited users.
     */
    credits_deducted: z.number().int().nonnegative().optional(),
    /** The balance after the batch. Omitted for unlimited users. */
    credits_remaining: z.number().int().nonnegative().optional(),
  })
  .meta({ id: 'VerifyBatchResult' });
export type VerifyBatchResult = z.infer<typeof VerifyBatchResultSchema>;

/**
 * The columns of `POST /verify`'s answer as `text/csv` (`Accept: text/csv`): the JSON answer's
 * fields of each result, null as an empty cell, lists joined by `|`.
 */
export const BATCH_CSV_HEADERS = [
  'input',
  'phone_number',
  'line_type',
  'line_type_source',
  'dnc',
  'cached',
  'credits_deducted',
  'invalid_reason',
  'extension',
  'dnc_sources',
  'dnc_lists_checked',
  'timezones',
  'callable_now',
  'callable_reason',
  'reassigned',
  'data_source',
] as const;

export const verifyRoutes = defineRoutes('verify', {
  verify: {
    method: 'GET',
    path: '/verify',
    auth: 'user',
    errors: ['insufficient_credits', 'plan_paused', 'service_unavailable'],
    apiKeyInQuery: true,
    changesState: true,
    summary: 'Check one phone number',
    query: VerifyQuerySchema,
    response: VerifyResultSchema,
  },
  verifyBatch: {
    method: 'POST',
    path: '/verify',
    auth: 'user',
    errors: ['csv_empty', 'insufficient_credits', 'plan_paused', 'service_unavailable'],
    apiKeyInQuery: true,
    summary: 'Check up to 10,000 numbers in one request (JSON or text/csv); one charge for the batch',
    body: VerifyBatchBodySchema,
    csvBody: true,
    response: VerifyBatchResultSchema,
    answerFormats: ['text/csv', 'application/x-ndjson'],
  },
});
