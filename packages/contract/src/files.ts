import { z } from 'zod';
import { CountsSchema } from './bulk-jobs.js';
import { defineRoutes } from './route-spec.js';
import { LINE_TYPES } from './verify.js';

/** Rows by the result's DNC column: `0` clean, `1` on a do-not-call list, `all` both. */
export const DNC_FILTER_VALUES = ['0', '1', 'all'] as const;
export const DncFilterSchema = z.enum(DNC_FILTER_VALUES);
export type DncFilter = z.infer<typeof DncFilterSchema>;

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
  );

/** Result downloads filter on the Line Type and DNC columns, case-insensitive substring (seed). */
export const ResultFilterSchema = z.object({
  line_type: LineTypeFilterSchema.optional(),
  dnc: DncFilterSchema.optional(),
});

/** Uploaded file / file view (seed document 2, section 3). */
export const FileViewSchema = z.object({
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
  file_method: z.enum(['api', 'upload']),
  uploaded_file: z.string().nullable(),
  line_types: CountsSchema,
  dnc_status: CountsSchema,
  file_message: z.string().nullable(),
});
export type FileView = z.infer<typeof FileViewSchema>;

export const FileListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().max(255).optional(),
  line_type: LineTypeFilterSchema.optional(),
  dnc: DncFilterSchema.optional(),
});
export type FileListQuery = z.infer<typeof FileListQuerySchema>;

export const FileListSchema = z.object({
  files: z.array(FileViewSchema),
  page: z.number().int(),
  total_pages: z.number().int(),
  total_files_count: z.number().int(),
});
export type FileList = z.infer<typeof FileListSchema>;

const FileReferenceParams = z.object({ file_reference: z.string().min(1).max(64) });

export const filesRoutes = defineRoutes('files', {
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
    summary: 'One file by its unguessable reference (the public file detail page)',
    params: FileReferenceParams,
    response: FileViewSchema,
  },
  downloadResult: {
    method: 'GET',
    path: '/files/{file_reference}/result',
    auth: 'none',
    summary: 'The result CSV, filtered on the server',
    params: FileReferenceParams,
    query: ResultFilterSchema,
  },
  downloadUpload: {
    method: 'GET',
    path: '/files/{file_reference}/upload',
    auth: 'none',
    summary: 'The CSV as uploaded',
    params: FileReferenceParams,
  },
});
