import { z } from 'zod';
import {
  ColumnRefSchema,
  CountsSchema,
  CreatedBulkJobSchema,
  MAX_INLINE_CSV_CHARS,
  MappableFieldSchema,
} from './bulk.js';
import { JobCreditsSchema } from './credits.js';
import { FileProofSchema } from './proof.js';
import { defineRoutes } from './route-spec.js';
import { LINE_TYPES } from './verify.js';
import { commaSeparatedList, EMAIL_FORMAT } from './wire-formats.js';

/** Rows by the result's DNC column: `0` clean, `1` on a do-not-call list, `all` both. */
export const DNC_FILTER_VALUES = ['0', '1', 'all'] as const;
export const DncFilterSchema = z.enum(DNC_FILTER_VALUES);
export type DncFilter = z.infer<typeof DncFilterSchema>;

/**
 * Rows by the result's `Callable Now` column (the optional `callable_now` result column): `1` inside
 * the calling window when the file was scrubbed, `0` outside, `all` both. A row whose window could
 * not be told (an invalid number) is in neither.
 */
export const CALLABLE_NOW_FILTER_VALUES = ['0', '1', 'all'] as const;
export const CallableNowFilterSchema = z.enum(CALLABLE_NOW_FILTER_VALUES);
export type CallableNowFilter = z.infer<typeof CallableNowFilterSchema>;

const LINE_TYPE_FILTER = new RegExp(`^(all|${LINE_TYPES.join('|')})(,(all|${LINE_TYPES.join('|')}))*$`);

/** One line type, several comma-separated (`mobile,landline`: either), or `all`. */
export const LineTypeFilterSchema = z
  .string()
  .max(200)
  .transform((text) => text.replace(/\s+/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .regex(LINE_TYPE_FILTER, `must be all, or line types separated by commas: ${LINE_TYPES.join(', ')}`),
  )
  .meta({ pattern: LINE_TYPE_FILTER.source });

/** The line-type filter as a query parameter: a comma-separated list of `all` and line types. */
export const LineTypeFilterQuerySchema = LineTypeFilterSchema.meta(
  commaSeparatedList(['all', ...LINE_TYPES]),
);

/**
 * Result downloads filter on the Line Type and DNC columns, case-insensitive substring (seed), and
 * on the Callable Now column of a result that has one (a 400 for a result without it).
 */
export const ResultFilterSchema = z.object({
  line_type: LineTypeFilterQuerySchema.optional(),
  dnc: DncFilterSchema.optional(),
  callable_now: CallableNowFilterSchema.optional(),
});

/** Why a file's upload and result were deleted: its age, its owner, or its account's deletion. */
export const FileRemovedBySchema = z.enum(['retention', 'customer', 'account']);
export type FileRemovedBy = z.infer<typeof FileRemovedBySchema>;

/** Uploaded file / file view (seed document 2, section 3). */
export const FileViewSchema = z
  .object({
    file_reference: z.string(),
    file_name: z.string(),
    /** The result's URL; the text 'Failed' marks a failed job, as the seed's clients expect. */
    file_url: z.string().nullable(),
    last_updated: z.string(),
    created_at: z.string(),
    status: z.enum(['completed', 'failed', 'processing', 'pending']),
    total_records: z.number().int().nonnegative(),
    processed_rows: z.number().int().nonnegative(),
    duplicates: z.number().int().nonnegative(),
    credits_reversed: z.number().int().nonnegative(),
    credits_charged: z.number().int().nonnegative(),
    /**
     * The job's credits as the ledger has them: charged, given back by reason, and net (what the
     * balance fell by). `credits_reversed` counts every give-back together. Absent from older servers.
     */
    credits: JobCreditsSchema.optional(),
    file_method: z.enum(['api', 'upload']),
    uploaded_file: z.string().nullable(),
    line_types: CountsSchema,
    dnc_status: CountsSchema,
    file_message: z.string().nullable(),
    /** Why a failed job failed (the job's `error`); null for any other job. */
    error: z.string().nullable(),
    /**
     * A failed job that kept the result of the records it scrubbed and charged (a streamed job cut
     * off part-way): that result's URL, in the form of `file_url`'s. Null otherwise.
     */
    part_url: z.string().nullable(),
    /**
     * Why the "clean" filter (`dnc=0`) keeps no row of this file, when that is because no number was
     * checked (no do-not-call list covering them was loaded, or only stale ones): unchecked is not
     * clean. The result download with `dnc=0` says the same in its `x-scrub-dnc-notice` header.
     * Absent otherwise.
     */
    dnc_notice: z.string().optional(),
    /**
     * When the result's `Callable Now` cells were evaluated (the scrub's start), for a file scrubbed
     * with the `callable_now` column: the calling window is as of then. null without that column or
     * before the job runs. Absent from older servers.
     */
    columns_evaluated_at: z.string().nullable().optional(),
    /**
     * When the file's upload and result are deleted by the service's retention
     * (SCRUB_FILE_RETENTION_DAYS after the file was created). Absent from older servers.
     */
    expires_at: z.string().nullable().optional(),
    /**
     * When the upload and result were deleted, once they were: the downloads then answer 410
     * (`file_expired`). The file's counts and proof of scrub are kept. Absent from older servers.
     */
    removed_at: z.string().nullable().optional(),
    /** Why: `retention` (its age), `customer` (its owner deleted it), `account` (the account was deleted). */
    removed_by: FileRemovedBySchema.nullable().optional(),
  })
  .meta({ id: 'FileView' });
export type FileView = z.infer<typeof FileViewSchema>;

const PageSizeSchema = z.coerce.number().int().min(1).max(100);

/** `GET /files`. `per_page` (the seed's name) is an alias of `limit`: give one of them, 20 by default. */
export const FileListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: PageSizeSchema.optional().describe('Files per page, 1 to 100 (default 20)'),
    per_page: PageSizeSchema.optional().describe('Alias of limit (the seed’s name)'),
    search: z.string().max(255).optional(),
    line_type: LineTypeFilterQuerySchema.optional(),
    dnc: DncFilterSchema.optional(),
    /** Shapes the result links of the files that have a Callable Now column; the others' links go without it. */
    callable_now: CallableNowFilterSchema.optional(),
  })
  .refine(
    (query) => query.limit === undefined || query.per_page === undefined || query.limit === query.per_page,
    {
      message: 'per_page is an alias of limit: give one of them',
      path: ['per_page'],
    },
  )
  .transform(({ per_page, limit, ...query }) => ({ ...query, limit: limit ?? per_page ?? 20 }));
export type FileListQuery = z.infer<typeof FileListQuerySchema>;

export const FileListSchema = z
  .object({
    files: z.array(FileViewSchema),
    page: z.number().int(),
    total_pages: z.number().int(),
    total_files_count: z.number().int(),
  })
  .meta({ id: 'FileList' });
export type FileList = z.infer<typeof FileListSchema>;

/**
 * `POST /files/existing`: a file already scrubbed elsewhere (the seed's "Upload Existing Files",
 * shown as Direct DB). Every upload has a header row. Columns are header texts (any case) or 0-based
 * positions; the phone and line type columns are required, the DNC column optional. `csv_content`
 * sends a small file inline and stores it at once.
 */
export const CreateExistingFileSchema = z
  .object({
    file_name: z.string().trim().min(1).max(255),
    phone_col: ColumnRefSchema,
    line_type_col: ColumnRefSchema,
    dnc_col: ColumnRefSchema.optional(),
    csv_content: z
      .string()
      .max(
        MAX_INLINE_CSV_CHARS,
        'is too large to send inline: create the upload without it and PUT the file to upload_url',
      )
      .optional(),
  })
  .strict()
  .refine((body) => body.line_type_col !== body.phone_col, {
    message: 'The line type column cannot be the phone column',
    path: ['line_type_col'],
  });
export type CreateExistingFile = z.infer<typeof CreateExistingFileSchema>;

/** The answer to `POST /files/existing`: the upload's URL, or the file itself when sent inline. */
export const CreatedExistingFileSchema = CreatedBulkJobSchema.extend({
  /** Set when the file came inline: it is stored already. */
  file: FileViewSchema.nullable(),
}).meta({ id: 'CreatedExistingFile' });
export type CreatedExistingFile = z.infer<typeof CreatedExistingFileSchema>;

/** At most this many addresses per `POST /files/{file_reference}/email`. */
export const MAX_FILE_MAIL_RECIPIENTS = 5;

/**
 * `POST /files/{file_reference}/email`: the file's links by e-mail (the seed's Export "Email").
 * `to` defaults to the account's own address. The filters shape the result link as on Export.
 */
export const EmailFileSchema = z
  .object({
    to: z
      .array(
        z.string().trim().toLowerCase().max(320).meta(EMAIL_FORMAT).pipe(z.email('is not an e-mail address')),
      )
      .min(1, 'needs at least one address')
      .max(MAX_FILE_MAIL_RECIPIENTS, `takes at most ${MAX_FILE_MAIL_RECIPIENTS} addresses`)
      .optional(),
    line_type: LineTypeFilterSchema.optional(),
    dnc: DncFilterSchema.optional(),
    callable_now: CallableNowFilterSchema.optional(),
  })
  .strict();
export type EmailFile = z.infer<typeof EmailFileSchema>;

export const EmailedFileSchema = z
  .object({
    message: z.string(),
    /** The addresses the mail went to, one mail each. */
    sent_to: z.array(z.string()),
  })
  .meta({ id: 'EmailedFile' });
export type EmailedFile = z.infer<typeof EmailedFileSchema>;

/** The most rows one page of a result's review holds. */
export const MAX_RESULT_ROWS_PER_PAGE = 200;

/**
 * `GET /files/{file_reference}/rows`: a page of a result's rows, read on the service from the stored
 * result (a ranged read through the result's page index), never the whole file. `search` finds a
 * part of the number or of a mapped field (name, e-mail...), any case; it reads the whole result.
 */
export const ResultRowsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_RESULT_ROWS_PER_PAGE)
    .default(50)
    .describe(`Rows per page, 1 to ${MAX_RESULT_ROWS_PER_PAGE} (default 50)`),
  line_type: LineTypeFilterQuerySchema.optional(),
  dnc: DncFilterSchema.optional(),
  search: z.string().trim().max(100).optional(),
});
export type ResultRowsQuery = z.infer<typeof ResultRowsQuerySchema>;

/** One row of a result: its place among the data rows (1-based, the header not counted) and its cells. */
export const ResultRowSchema = z.object({
  row: z.number().int().positive(),
  cells: z.array(z.string()),
});
export type ResultRow = z.infer<typeof ResultRowSchema>;

export const ResultRowsPageSchema = z
  .object({
    file_reference: z.string(),
    /** The result's header row: every input column, then Line Type, DNC and the columns asked for. */
    columns: z.array(z.string()),
    /** Where the phone number, Line Type and DNC are in `columns` (0-based); null when not found. */
    phone_column: z.number().int().nullable(),
    line_type_column: z.number().int().nullable(),
    dnc_column: z.number().int().nullable(),
    /** The job's mapped fields (the wizard's optional fields, `mapping`) by their column in `columns`. */
    mapped: z.partialRecord(MappableFieldSchema, z.number().int()),
    rows: z.array(ResultRowSchema),
    page: z.number().int(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
    /** Rows that match the filters (all of the result's data rows without any). */
    total_rows: z.number().int(),
  })
  .meta({ id: 'ResultRowsPage' });
export type ResultRowsPage = z.infer<typeof ResultRowsPageSchema>;

const FileReferenceParams = z.object({ file_reference: z.string().min(1).max(64) });

const JobIdParams = z.object({ job_id: z.string().min(1).max(64) });

export const filesRoutes = defineRoutes('files', {
  createExistingFile: {
    method: 'POST',
    path: '/files/existing',
    auth: 'user',
    errors: ['csv_empty', 'storage_unavailable'],
    summary: 'Upload Existing Files: a job for a file scrubbed elsewhere; answers the upload URL',
    body: CreateExistingFileSchema,
    response: CreatedExistingFileSchema,
    status: 201,
  },
  submitExistingFile: {
    method: 'POST',
    path: '/files/existing/{job_id}/submit',
    auth: 'user',
    errors: ['csv_empty', 'insufficient_credits', 'plan_paused', 'conflict', 'storage_unavailable'],
    summary: 'Check every row of the uploaded file and store it as a completed file; charges nothing',
    params: JobIdParams,
    response: FileViewSchema,
  },
  listFiles: {
    method: 'GET',
    path: '/files',
    auth: 'user',
    summary: "The user's files, newest first",
    query: FileListQuerySchema,
    response: FileListSchema,
  },
  getFile: {
    method: 'GET',
    path: '/files/{file_reference}',
    auth: 'none',
    errors: ['file_not_found'],
    summary: 'One file by its unguessable reference (the public file detail page)',
    params: FileReferenceParams,
    response: FileViewSchema,
  },
  downloadResult: {
    method: 'GET',
    path: '/files/{file_reference}/result',
    auth: 'none',
    errors: ['file_not_found', 'results_not_ready', 'file_expired'],
    summary:
      'The result CSV, filtered on the server; with dnc=0 and no row checked, the x-scrub-dnc-notice header says why it is empty',
    params: FileReferenceParams,
    query: ResultFilterSchema,
  },
  listResultRows: {
    method: 'GET',
    path: '/files/{file_reference}/rows',
    auth: 'none',
    errors: ['file_not_found', 'results_not_ready', 'file_expired'],
    summary:
      "A page of a result's rows, read on the service from the stored result (the phone log's review of a bulk file); filters: line type, DNC, search",
    params: FileReferenceParams,
    query: ResultRowsQuerySchema,
    response: ResultRowsPageSchema,
  },
  emailFile: {
    method: 'POST',
    path: '/files/{file_reference}/email',
    auth: 'user',
    errors: ['file_not_found', 'results_not_ready', 'file_expired'],
    summary: "E-mail a completed file's links (result, filtered as asked, and file detail); the owner only",
    params: FileReferenceParams,
    body: EmailFileSchema,
    response: EmailedFileSchema,
  },
  downloadUpload: {
    method: 'GET',
    path: '/files/{file_reference}/upload',
    auth: 'none',
    errors: ['file_not_found', 'file_expired'],
    summary: 'The CSV as uploaded',
    params: FileReferenceParams,
  },
  deleteFile: {
    method: 'DELETE',
    path: '/files/{file_reference}',
    auth: 'user',
    errors: ['file_not_found', 'conflict', 'storage_unavailable'],
    summary:
      "Delete a file's upload and result now (the owner only); its counts, credits and proof of scrub stay. A 409 while its job runs",
    params: FileReferenceParams,
    response: FileViewSchema,
  },
  getFileProof: {
    method: 'GET',
    path: '/files/{file_reference}/proof',
    auth: 'none',
    errors: ['file_not_found', 'results_not_ready', 'conflict'],
    summary:
      'Proof of scrub: a signed statement (JWS) of what a completed job checked, against which data, and until when it may be relied on',
    params: FileReferenceParams,
    response: FileProofSchema,
  },
});
