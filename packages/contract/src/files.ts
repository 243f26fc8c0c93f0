import { z } from 'zod';
import { CountsSchema, LineTypeFilterSchema } from './bulk.js';

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
  dnc: z.enum(['0', '1', 'all']).optional(),
});
export type FileListQuery = z.infer<typeof FileListQuerySchema>;

export const FileListSchema = z.object({
  files: z.array(FileViewSchema),
  page: z.number().int(),
  total_pages: z.number().int(),
  total_files_count: z.number().int(),
});
export type FileList = z.infer<typeof FileListSchema>;
