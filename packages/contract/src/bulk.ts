import { z } from 'zod';
import { JobCreditsSchema } from './credits.js';
import { CarrierLookupCountsSchema, LineTypeSourceCountsSchema, LookupSchema } from './line-type-source.js';
import { ListNamesQuerySchema, ListNamesSchema } from './operator-lists.js';
import { ReassignedSourceSchema } from './reassigned.js';
import { defineRoutes } from './route-spec.js';
import { uploadPartsRoutes } from './upload-parts.js';
import { DncListDateSchema } from './verify.js';
import { commaSeparatedList } from './wire-formats.js';

/** A column is named by its header text (at most 255 characters) or its zero-based position. */
export const ColumnRefSchema = z.union([
  z.string().min(1).max(255),
  z.number().int().nonnegative().max(10_000),
]);
export type ColumnRef = z.infer<typeof ColumnRefSchema>;

/** The most `csv_content` carries inline (1 MiB of text); larger files go to `upload_url`. */
export const MAX_INLINE_CSV_CHARS = 1_048_576;

/** The optional columns of the wizard's mapping step, each 'Do Not Map' (absent) by default. */
export const mappableFields = [
  'first_name',
  'last_name',
  'full_name',
  'business_name',
  'email',
  'street_address',
  'street_address_2',
  'city',
  'state',
  'postal_code',
  'dob',
] as const;
export const MappableFieldSchema = z.enum(mappableFields);

/** The standard header of each mapped field, in a result asked with `mapped_headers`. */
export const MAPPED_FIELD_HEADERS: Readonly<Record<MappableField, string>> = {
  first_name: 'First Name',
  last_name: 'Last Name',
  full_name: 'Full Name',
  business_name: 'Business Name',
  email: 'Email',
  street_address: 'Street Address',
  street_address_2: 'Street Address 2',
  city: 'City',
  state: 'State',
  postal_code: 'Postal Code',
  dob: 'Date of Birth',
};
export type MappableField = (typeof mappableFields)[number];

/** A column reference as compared with another: header texts in any case, positions as numbers. */
function columnKey(column: ColumnRef): string {
  return typeof column === 'number' ? `#${column}` : column.trim().toLowerCase();
}

/** Which column each optional field comes from; only the fields above, each at most once. */
export const MappingSchema = z
  .object(
    Object.fromEntries(mappableFields.map((field) => [field, ColumnRefSchema.optional()])) as {
      [F in (typeof mappableFields)[number]]: z.ZodOptional<typeof ColumnRefSchema>;
    },
  )
  .strict();

/**
 * Optional result columns, after `Line Type` and `DNC` (in this order): `timezone`, the area code's
 * IANA time zones; `callable_now`, 1 when the calling window (08:00-21:00 local, in every zone of
 * the area code) is open when the file is scrubbed, 0 when it is closed, empty when it cannot be told;
 * `line_type_source` (`Line Type Source`), what the row's line type rests on (`LINE_TYPE_SOURCES`),
 * empty when nothing gave it one.
 */
export const OUTPUT_COLUMNS = ['timezone', 'callable_now', 'line_type_source'] as const;
export const OutputColumnSchema = z.enum(OUTPUT_COLUMNS);
export type OutputColumn = z.infer<typeof OutputColumnSchema>;

const FileNameSchema = z.string().trim().min(1).max(255);

/**
 * The seed's wire shapes, accepted as documented aliases: `filename` for `file_name`, and one flat
 * `<field>_col` per mappable field (`first_name_col`...) for `mapping.<field>`.
 */
const SEED_COLUMN_ALIASES = Object.fromEntries(
  mappableFields.map((field) => [
    `${field}_col`,
    ColumnRefSchema.optional().describe(`Alias of mapping.${field} (the seed's flat shape)`),
  ]),
) as Record<`${MappableField}_col`, z.ZodOptional<typeof ColumnRefSchema>>;

/** `POST /bulk/jobs`. Small files may come inline as `csv_content`; otherwise PUT to `upload_url`. */
export const CreateBulkJobSchema = z
  .object({
    file_name: FileNameSchema.optional().describe('The file’s name; required (or its alias filename)'),
    filename: FileNameSchema.optional().describe('Alias of file_name (the seed’s name)'),
    ...SEED_COLUMN_ALIASES,
    phone_col: ColumnRefSchema,
    header_row: z.union([z.literal(0), z.literal(1)]).default(1),
    mapping: MappingSchema.default({}),
    /**
     * true: the result file names each mapped column (`mapping`) with its standard header
     * (`MAPPED_FIELD_HEADERS`: `First Name`, `Email`...), its cells as sent. Default false: every
     * column as the customer sent it, headers included.
     */
    mapped_headers: z.boolean().default(false),
    /** Optional result columns (`OUTPUT_COLUMNS`); default none, and the result is as it always was. */
    columns: z
      .array(OutputColumnSchema)
      .max(OUTPUT_COLUMNS.length * 2)
      .default([]),
    /**
     * Operator lists to flag rows with, one `List: <name>` column each, instead of the account's
     * default lists; `[]` for none.
     */
    lists: ListNamesSchema.optional(),
    /**
     * The column of each row's consent date (`YYYY-MM-DD` or `M/D/YYYY`), by header text or
     * position as `phone_col`: adds the `Reassigned` result column, and each record then costs
     * `1 + reassigned.credits` (GET /config). Absent: no such column, at the usual price.
     */
    consent_col: ColumnRefSchema.optional(),
    /**
     * `carrier`: a live carrier lookup of each distinct valid number (GET /config's
     * `carrier_lookup`; 400 where the operator set none up). Adds `Line Type Source` and `Ported`
     * result columns, and each record then costs `carrier_lookup.credits` more; the lookup price of a
     * number the provider did not answer is given back when the job completes.
     */
    lookup: LookupSchema.optional(),
    csv_content: z
      .string()
      .max(
        MAX_INLINE_CSV_CHARS,
        'is too large to send inline: create the job without it and PUT the file to upload_url',
      )
      .optional(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.file_name === undefined && body.filename === undefined) {
      context.addIssue({ code: 'custom', path: ['file_name'], message: 'file_name is required' });
    } else if (
      body.file_name !== undefined &&
      body.filename !== undefined &&
      body.file_name !== body.filename
    ) {
      context.addIssue({
        code: 'custom',
        path: ['filename'],
        message: 'filename is an alias of file_name: give one of them',
      });
    }
    for (const field of mappableFields) {
      const alias = body[`${field}_col`];
      const mapped = body.mapping[field];
      if (alias !== undefined && mapped !== undefined && alias !== mapped) {
        context.addIssue({
          code: 'custom',
          path: [`${field}_col`],
          message: `${field}_col is an alias of mapping.${field}: give one of them`,
        });
      }
    }
  })
  .superRefine((body, context) => {
    // One column feeds one field: the same column named twice is refused, saying which fields.
    const fieldOfColumn = new Map<string, string>([[columnKey(body.phone_col), 'phone_col']]);
    for (const field of mappableFields) {
      const column = body[`${field}_col`] ?? body.mapping[field];
      if (column === undefined) continue;
      const key = columnKey(column);
      const taken = fieldOfColumn.get(key);
      if (taken === undefined) {
        fieldOfColumn.set(key, field);
        continue;
      }
      context.addIssue({
        code: 'custom',
        path: ['mapping', field],
        message: `column ${JSON.stringify(column)} is already mapped to ${taken}: a column maps to one field`,
      });
    }
  })
  .transform((body) => {
    const { file_name, filename, mapping, ...rest } = body;
    const job: Record<string, unknown> = { ...rest };
    const merged: Partial<Record<MappableField, ColumnRef>> = { ...mapping };
    for (const field of mappableFields) {
      const alias = body[`${field}_col`];
      delete job[`${field}_col`];
      if (alias !== undefined) merged[field] = alias;
    }
    return {
      ...(job as Omit<typeof rest, `${MappableField}_col`>),
      file_name: (file_name ?? filename) as string,
      mapping: merged,
    };
  });
export type CreateBulkJob = z.infer<typeof CreateBulkJobSchema>;

export const JOB_STATUSES = ['awaiting_upload', 'queued', 'processing', 'completed', 'failed'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES).meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const CountsSchema = z.record(z.string(), z.number().int().nonnegative());

export const BulkJobSchema = z
  .object({
    job_id: z.string(),
    filename: z.string(),
    status: JobStatusSchema,
    created_at: z.string(),
    completed_at: z.string().nullable(),
    total_rows: z.number().int().nonnegative().nullable(),
    processed_rows: z.number().int().nonnegative(),
    duplicates: z.number().int().nonnegative(),
    result_url: z.string().nullable(),
    uploaded_file: z.string().nullable(),
    file_reference: z.string(),
    credits_charged: z.number().int().nonnegative(),
    credits_reversed: z.number().int().nonnegative(),
    /** The job's credits as the ledger has them: charged, given back by reason, net. Absent from older servers. */
    credits: JobCreditsSchema.optional(),
    line_types: CountsSchema,
    dnc_status: CountsSchema,
    file_message: z.string().nullable(),
    error: z.string().nullable(),
    /** The optional result columns asked for, in the result's order. */
    columns: z.array(OutputColumnSchema),
    /**
     * When the result's `callable_now` cells were evaluated (the scrub's start): the calling window
     * is as of then, not as of the download. null until the job runs, or without `callable_now`.
     */
    columns_evaluated_at: z.string().nullable(),
    /**
     * The do-not-call lists the job's answers rest on, each with its release date, age and whether
     * it was stale when the file was scrubbed. null until the job ran (and for jobs from before list
     * dates were recorded). Absent from older servers.
     */
    dnc_lists: z.array(DncListDateSchema).nullable().optional(),
    /** The operator lists the result flags, one `List: <name>` column each. Absent from older servers. */
    lists: z.array(z.string()).optional(),
    /** The consent-date column asked for (`Reassigned` result column); null without one. Absent from older servers. */
    consent_col: ColumnRefSchema.nullable().optional(),
    /** Credits each record costs: 1, or 1 and the reassigned-number price with a consent column. */
    credits_per_record: z.number().int().positive().optional(),
    /**
     * Who answered the `Reassigned` column (the operator's imported disconnections) and the date its
     * data is complete to; null until the job ran, without a consent column, or when nothing could
     * answer (every cell empty: no data). Absent from older servers.
     */
    reassigned_source: ReassignedSourceSchema.nullable().optional(),
    /** `carrier` when the job asked carrier lookups; null otherwise. Absent from older servers. */
    lookup: LookupSchema.nullable().optional(),
    /** Its lookups once it ran (who answered, how many); null otherwise. Absent from older servers. */
    carrier_lookups: CarrierLookupCountsSchema.nullable().optional(),
    /** Rows with a valid number by what their line type rests on, once it ran; null before. Absent from older servers. */
    line_type_sources: LineTypeSourceCountsSchema.nullable().optional(),
    /** Whether the result names the mapped columns with the standard headers. Absent from older servers. */
    mapped_headers: z.boolean().optional(),
  })
  .meta({ id: 'Job' });
export type BulkJob = z.infer<typeof BulkJobSchema>;

export const CreatedBulkJobSchema = BulkJobSchema.extend({
  message: z.string(),
  upload_url: z.string().nullable(),
  upload_expires_at: z.string().nullable(),
}).meta({ id: 'CreatedJob' });
export type CreatedBulkJob = z.infer<typeof CreatedBulkJobSchema>;

/** `GET /bulk/jobs/{job_id}/quote`: what submitting an uploaded job would charge; charges nothing. */
export const BulkJobQuoteSchema = z
  .object({
    job_id: z.string(),
    /** Data records: what submitting charges for ("Found N phone numbers (requires N credits)"). */
    records: z.number().int().nonnegative(),
    /** Distinct valid numbers: duplicates and invalid numbers are credited back after the scrub. */
    unique_numbers: z.number().int().nonnegative(),
    duplicates: z.number().int().nonnegative(),
    /** Credits each record costs: 1, or 1 and the reassigned-number price with a consent column. Absent from older servers. */
    credits_per_record: z.number().int().positive().optional(),
    /** What submitting charges now: the records times `credits_per_record`, or 0 on an unlimited plan. */
    credits_required: z.number().int().nonnegative(),
    credits_available: z.number().int().nonnegative(),
    unlimited: z.boolean(),
    /** Whether submitting would be accepted: enough credits, or unlimited, and the plan not paused. */
    sufficient: z.boolean(),
    plan_paused: z.boolean(),
    /**
     * The do-not-call lists the job would be checked against now, each with its release date and
     * age: the shared lists (federal, states) and the account's own list. Empty when none is loaded:
     * then every valid number answers unchecked, never clean. Absent from older servers.
     */
    dnc_lists: z.array(DncListDateSchema).optional(),
    /**
     * The lists' state in one sentence to show before the customer pays: none loaded, or stale
     * lists whose silence makes no number clean; null when every list is fresh. Absent from older servers.
     */
    dnc_notice: z.string().nullable().optional(),
  })
  .meta({ id: 'JobQuote' });
export type BulkJobQuote = z.infer<typeof BulkJobQuoteSchema>;

const JobIdParams = z.object({ job_id: z.string().min(1).max(64) });

/** The longest a `GET /bulk/jobs/{id}?wait=` is held open, in seconds. */
export const MAX_JOB_WAIT_SECONDS = 25;

export const GetBulkJobQuerySchema = z.object({
  /**
   * Seconds to hold the answer while the job is queued or processing: it comes as soon as the job
   * ends, or after this long with the job's progress. Absent or 0: at once.
   */
  wait: z.coerce
    .number()
    .int('wait must be a whole number of seconds')
    .min(0, 'wait must be 0 or more seconds')
    .max(MAX_JOB_WAIT_SECONDS, `wait is at most ${MAX_JOB_WAIT_SECONDS} seconds`)
    .optional(),
});

/** The response header of `POST /bulk/jobs/stream` naming the job, for `GET /bulk/jobs/{job_id}`. */
export const JOB_ID_HEADER = 'scrub-job-id';

/**
 * `POST /bulk/jobs/stream`: the job's options in the query (the body is the file). The phone column
 * is `phone_col` (header text) or `phone_index` (0-based position), one of them.
 */
export const StreamBulkJobQuerySchema = z
  .object({
    file_name: z.string().trim().min(1).max(255).default('stdin.csv'),
    phone_col: z.string().trim().min(1).max(255).optional(),
    phone_index: z.coerce
      .number()
      .int('phone_index must be a whole number')
      .nonnegative('phone_index counts from 0')
      .max(10_000)
      .optional(),
    header_row: z.coerce
      .number()
      .int()
      .min(0)
      .max(1)
      .pipe(z.union([z.literal(0), z.literal(1)]))
      .default(1),
    /** Optional result columns (`OUTPUT_COLUMNS`), comma-separated. */
    columns: z
      .string()
      .max(200)
      .transform((text) => text.split(',').filter((column) => column.trim() !== ''))
      .pipe(z.array(z.enum(OUTPUT_COLUMNS)).max(OUTPUT_COLUMNS.length))
      .meta(commaSeparatedList(OUTPUT_COLUMNS))
      .optional(),
    /** Operator lists to flag rows with, comma-separated (see `CreateBulkJobSchema.lists`). */
    lists: ListNamesQuerySchema.optional(),
    /** The consent-date column (as `consent_col` of POST /bulk/jobs): its header text or, as `consent_index`, its position. */
    consent_col: z.string().trim().min(1).max(255).optional(),
    consent_index: z.coerce
      .number()
      .int('consent_index must be a whole number')
      .nonnegative('consent_index counts from 0')
      .max(10_000)
      .optional(),
    /**
     * `carrier` is refused here (400): a streamed file is scrubbed as it arrives, before its numbers
     * could be looked up. Ask carrier lookups in a queued job (POST /bulk/jobs with `lookup`).
     */
    lookup: LookupSchema.optional(),
  })
  .refine((query) => (query.phone_col === undefined) !== (query.phone_index === undefined), {
    message: 'Give the phone column as phone_col (its header text) or phone_index (0-based), one of them',
    path: ['phone_col'],
  })
  .refine((query) => query.consent_col === undefined || query.consent_index === undefined, {
    message:
      'Give the consent-date column as consent_col (its header text) or consent_index (0-based), not both',
    path: ['consent_col'],
  });
export type StreamBulkJobQuery = z.input<typeof StreamBulkJobQuerySchema>;

/** How a streamed job's `error` begins when the credits ran out part-way (`streamStoppedPartWay`). */
export const STREAM_CREDITS_RAN_OUT = 'Your credits ran out after';

/**
 * What a streamed job's `error` says when it stopped part-way after rows went out: the credits ran
 * out, the plan was paused, the rest of the file could not be read, or the connection was lost. The rows scrubbed are charged and their
 * result kept with the failed job (`result_url`); the rest of the file was not scrubbed or charged.
 */
export function streamStoppedPartWay(
  why: 'credits' | 'paused' | 'connection' | 'unreadable',
  records: number,
  /** For `unreadable`: what is wrong with the file. */
  problem = '',
): string {
  const count = `${records.toLocaleString('en-US')} ${records === 1 ? 'record' : 'records'}`;
  const kept =
    'those were scrubbed and charged, and their result is kept with this job; the rest of the file was not scrubbed or charged.';
  if (why === 'credits') return `${STREAM_CREDITS_RAN_OUT} ${count}: ${kept} Buy credits and send the rest.`;
  if (why === 'paused') return `Your plan was paused while the file streamed, after ${count}: ${kept}`;
  if (why === 'unreadable') return `The file could not be read after ${count} (${problem}): ${kept}`;
  return `The connection that sent this file was lost after ${count}: ${kept} Send the rest again.`;
}

export const bulkRoutes = defineRoutes('bulk', {
  streamBulkJob: {
    method: 'POST',
    path: '/bulk/jobs/stream',
    auth: 'user',
    errors: [
      'csv_empty',
      'insufficient_credits',
      'plan_paused',
      'service_unavailable',
      'storage_unavailable',
    ],
    summary:
      'Scrub a CSV streamed in the body; the result CSV streams back as rows arrive (charged in blocks as they come)',
    query: StreamBulkJobQuerySchema,
    streamBody: true,
  },
  createBulkJob: {
    method: 'POST',
    path: '/bulk/jobs',
    auth: 'user',
    errors: ['csv_empty', 'insufficient_credits', 'plan_paused', 'storage_unavailable'],
    summary: 'Create a bulk job; answers the upload URL',
    body: CreateBulkJobSchema,
    response: CreatedBulkJobSchema,
    status: 201,
  },
  submitBulkJob: {
    method: 'POST',
    path: '/bulk/jobs/{job_id}/submit',
    auth: 'user',
    errors: [
      'csv_empty',
      'insufficient_credits',
      'plan_paused',
      'conflict',
      'service_unavailable',
      'storage_unavailable',
    ],
    summary: 'Check credits and queue an uploaded job',
    params: JobIdParams,
    response: BulkJobSchema,
  },
  quoteBulkJob: {
    method: 'GET',
    path: '/bulk/jobs/{job_id}/quote',
    auth: 'user',
    errors: ['csv_empty', 'conflict'],
    summary: 'What submitting an uploaded job would charge; charges nothing',
    params: JobIdParams,
    response: BulkJobQuoteSchema,
  },
  getBulkJob: {
    method: 'GET',
    path: '/bulk/jobs/{job_id}',
    auth: 'user',
    summary: 'A bulk job; with `wait`, answered when it ends (long poll)',
    params: JobIdParams,
    query: GetBulkJobQuerySchema,
    response: BulkJobSchema,
  },
  ...uploadPartsRoutes,
});
