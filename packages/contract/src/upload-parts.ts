import { z } from 'zod';
import { defineRoutes } from './route-spec.js';

/**
 * A resumable upload: a bulk job's file sent in numbered parts, each to its own signed URL, so
 * that a dropped connection costs one part rather than the whole file. The service says which
 * parts it holds; a client sends only the others, then completes the upload, which puts the file
 * in place at once (as a single PUT to `upload_url` would have).
 */
export const StartUploadSchema = z
  .object({
    /** The whole file's size in bytes; every part but the last is `part_size` bytes. */
    size: z.number().int().positive(),
  })
  .strict();
export type StartUploadParams = z.input<typeof StartUploadSchema>;

/** One part still to send: its 1-based number, its bytes `[start, end)` of the file, and where to PUT them. */
export const UploadPartUrlSchema = z.object({
  part_number: z.number().int().positive(),
  start: z.number().int().nonnegative(),
  end: z.number().int().positive(),
  url: z.string(),
});
export type UploadPartUrl = z.infer<typeof UploadPartUrlSchema>;

export const ResumableUploadSchema = z
  .object({
    upload_id: z.string(),
    job_id: z.string(),
    size: z.number().int(),
    part_size: z.number().int(),
    part_count: z.number().int(),
    /** Bytes of the parts the service holds at their right size. */
    bytes_received: z.number().int(),
    parts_received: z.array(z.number().int()),
    /** PUT each part's bytes to its URL (no credentials, any Content-Type); empty once all arrived. */
    parts_to_send: z.array(UploadPartUrlSchema),
    /** When the part URLs stop working: ask for the upload again for new ones. */
    urls_expire_at: z.string(),
    /** When an upload never completed is abandoned and its parts removed. */
    expires_at: z.string(),
    completed: z.boolean(),
  })
  .meta({ id: 'ResumableUpload' });
export type ResumableUpload = z.infer<typeof ResumableUploadSchema>;

const JobIdParams = z.object({ job_id: z.string().min(1).max(64) });
const UploadParams = z.object({ job_id: z.string().min(1).max(64), upload_id: z.string().min(1).max(64) });

/** Spread into the bulk resource's routes: the upload of a bulk job's file. */
export const uploadPartsRoutes = defineRoutes('bulk', {
  startBulkUpload: {
    method: 'POST',
    path: '/bulk/jobs/{job_id}/uploads',
    auth: 'user',
    errors: ['conflict', 'payload_too_large', 'storage_unavailable'],
    summary: "Start a resumable upload of the job's file in parts; answers a URL for each part",
    params: JobIdParams,
    body: StartUploadSchema,
    response: ResumableUploadSchema,
    status: 201,
  },
  getBulkUpload: {
    method: 'GET',
    path: '/bulk/jobs/{job_id}/uploads/{upload_id}',
    auth: 'user',
    errors: ['storage_unavailable'],
    summary: 'A resumable upload: the parts the service holds, and fresh URLs for the others',
    params: UploadParams,
    response: ResumableUploadSchema,
  },
  completeBulkUpload: {
    method: 'POST',
    path: '/bulk/jobs/{job_id}/uploads/{upload_id}/complete',
    auth: 'user',
    errors: ['conflict', 'storage_unavailable'],
    summary: "Put the uploaded parts together as the job's file, once; then submit the job",
    params: UploadParams,
    response: ResumableUploadSchema,
  },
});
