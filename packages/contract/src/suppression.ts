import { z } from 'zod';
import { ColumnRefSchema, MAX_INLINE_CSV_CHARS } from './bulk.js';
import { defineRoutes } from './route-spec.js';

/** Numbers one add or remove call takes at most; a larger list is a CSV import. */
export const MAX_DNC_NUMBERS_PER_CALL = 10_000;

/** How an imported CSV meets the list: `merge` adds its numbers, `replace` makes them the whole list. */
export const DNC_IMPORT_MODES = ['merge', 'replace'] as const;
export const DncImportModeSchema = z.enum(DNC_IMPORT_MODES);
export type DncImportMode = z.infer<typeof DncImportModeSchema>;

/** Numbers as people write them (`(201) 555-0123`, `+1 201 555 0123`); each is read as a check reads it. */
export const DncNumbersSchema = z
  .object({
    numbers: z
      .array(z.string().max(100, 'is too long for a phone number'))
      .min(1, 'must hold at least one number')
      .max(
        MAX_DNC_NUMBERS_PER_CALL,
        `holds more than ${MAX_DNC_NUMBERS_PER_CALL.toLocaleString('en-US')} numbers: send them in several calls, or import a CSV`,
      ),
  })
  .strict();
export type DncNumbers = z.infer<typeof DncNumbersSchema>;

/** A number the service could not read, by its place in the request (0-based) or its CSV line. */
export const DncRejectedSchema = z.object({
  /** 0-based index in `numbers`; for a CSV import, the line of the file (1-based). */
  index: z.number().int().nonnegative(),
  /** What was sent (add and remove). */
  input: z.string().optional(),
  /** The parser's reason code (add and remove): `too_short`, `not_nanp`, ... */
  reason: z.string().optional(),
  message: z.string(),
});
export type DncRejected = z.infer<typeof DncRejectedSchema>;

/** The list as it stands: how many numbers, and since when. */
export const DncSummarySchema = z
  .object({
    /** Numbers the account added (through the API, the CLI, the dashboard or an import). */
    count: z.number().int().nonnegative(),
    /** Numbers the operator imported for the account (`scrub-server data import internal`); read-only here. */
    operator_count: z.number().int().nonnegative(),
    /** When the list last changed; null when it never held a number. */
    updated_at: z.string().nullable(),
    /** The name checks give the list in `dnc_sources` and `dnc_lists_checked`. */
    list_name: z.literal('internal'),
  })
  .meta({ id: 'SuppressionSummary' });
export type DncSummary = z.infer<typeof DncSummarySchema>;

/** What an add, remove or import did. */
export const DncChangeSchema = z
  .object({
    /** Numbers added (or, for a remove, removed) by this call. */
    changed: z.number().int().nonnegative(),
    /** Numbers read well that needed no change: on the list already (add), or not on it (remove). */
    unchanged: z.number().int().nonnegative(),
    /** Numbers that could not be read, and why; nothing was done with them. */
    rejected: z.array(DncRejectedSchema),
    /** Numbers that could not be read in all (an import lists the first 1,000). */
    rejected_count: z.number().int().nonnegative(),
    summary: DncSummarySchema,
  })
  .meta({ id: 'SuppressionChange' });
export type DncChange = z.infer<typeof DncChangeSchema>;

/**
 * `POST /dnc/import`: a suppression CSV sent inline (up to 1 MiB; larger files: `POST /dnc/imports`). The phone column is its header
 * text (any case) or a 0-based position; a name means the file has a header row.
 */
export const DncImportSchema = z
  .object({
    csv_content: z
      .string()
      .min(1, 'is empty: send the CSV text')
      .max(
        MAX_INLINE_CSV_CHARS,
        `is larger than ${MAX_INLINE_CSV_CHARS.toLocaleString('en-US')} characters: import the file by upload instead (POST /dnc/imports; the SDK and CLI do so by themselves)`,
      ),
    mode: DncImportModeSchema.default('merge'),
    phone_col: ColumnRefSchema.default(0),
    /** Whether the first row is a header. Default: true when `phone_col` is a name, else false. */
    header: z.boolean().optional(),
  })
  .strict();
export type DncImport = z.infer<typeof DncImportSchema>;

/**
 * `POST /dnc/imports`: a suppression CSV too large to send inline, imported in three steps as a
 * bulk file is sent: this call (how to read the file) answers an upload URL; PUT the file there
 * (`text/csv`); `POST /dnc/imports/{import_id}/submit` imports it and answers what changed.
 */
export const DncImportUploadSchema = z
  .object({
    mode: DncImportModeSchema.default('merge'),
    phone_col: ColumnRefSchema.default(0),
    /** Whether the first row is a header. Default: true when `phone_col` is a name, else false. */
    header: z.boolean().optional(),
  })
  .strict();
export type DncImportUpload = z.input<typeof DncImportUploadSchema>;

/** A suppression import waiting for its file: where to PUT it, until when, and how large it may be. */
export const CreatedDncImportSchema = z.object({
  import_id: z.string(),
  upload_url: z.string(),
  upload_expires_at: z.string(),
  max_bytes: z.number().int().positive(),
});
export type CreatedDncImport = z.infer<typeof CreatedDncImportSchema>;

const DncImportParams = z.object({ import_id: z.string().min(1).max(64) });

export const DncListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  /** Digits the number contains (`201555`); anything but digits is ignored. */
  search: z.string().max(40).optional(),
});
export type DncListQuery = z.infer<typeof DncListQuerySchema>;

export const DncEntrySchema = z.object({
  /** E.164: `+12015550123`. */
  phone_number: z.string(),
  added_at: z.string(),
});
export type DncEntry = z.infer<typeof DncEntrySchema>;

export const DncNumberListSchema = z
  .object({
    numbers: z.array(DncEntrySchema),
    page: z.number().int(),
    total_pages: z.number().int(),
    total_count: z.number().int(),
  })
  .meta({ id: 'SuppressionNumberList' });
export type DncNumberList = z.infer<typeof DncNumberListSchema>;

export const suppressionRoutes = defineRoutes('suppression', {
  getDncSummary: {
    method: 'GET',
    path: '/dnc',
    auth: 'user',
    summary: "The account's own suppression list (internal DNC): how many numbers, last change",
    response: DncSummarySchema,
  },
  addDncNumbers: {
    method: 'POST',
    path: '/dnc/numbers',
    auth: 'user',
    summary: 'Adds numbers to the suppression list; unreadable ones are answered by index and skipped',
    body: DncNumbersSchema,
    response: DncChangeSchema,
  },
  removeDncNumbers: {
    method: 'POST',
    path: '/dnc/numbers/remove',
    auth: 'user',
    summary: 'Removes numbers from the suppression list',
    body: DncNumbersSchema,
    response: DncChangeSchema,
  },
  listDncNumbers: {
    method: 'GET',
    path: '/dnc/numbers',
    auth: 'user',
    summary: 'The suppression list, a page at a time, in number order; search by digits',
    query: DncListQuerySchema,
    response: DncNumberListSchema,
  },
  importDncList: {
    method: 'POST',
    path: '/dnc/import',
    auth: 'user',
    errors: ['csv_empty'],
    summary: 'Imports a suppression CSV: merge adds its numbers, replace makes them the whole list',
    body: DncImportSchema,
    response: DncChangeSchema,
  },
  createDncImport: {
    method: 'POST',
    path: '/dnc/imports',
    auth: 'user',
    errors: ['storage_unavailable'],
    summary: 'Starts an import of a suppression CSV of any size: answers the URL to PUT the file to',
    body: DncImportUploadSchema,
    response: CreatedDncImportSchema,
    status: 201,
  },
  submitDncImport: {
    method: 'POST',
    path: '/dnc/imports/{import_id}/submit',
    auth: 'user',
    errors: ['csv_empty', 'conflict', 'storage_unavailable'],
    summary:
      'Imports the uploaded suppression CSV (merge or replace, as the import was started) and answers what changed',
    params: DncImportParams,
    response: DncChangeSchema,
  },
  exportDncList: {
    method: 'GET',
    path: '/dnc/export',
    auth: 'user',
    summary: 'The whole suppression list as CSV (phone_number, added_at)',
  },
});
