import type { Kysely } from 'kysely';
import type { BlobStore } from '../blob-store/blob-store.js';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';
import { type JobRow, setUploadExpiry } from './job-store.js';

/** A signed URL to PUT the job's CSV to, its expiry recorded on the job (bulk and existing-file jobs alike). */
export async function grantJobUpload(
  db: Kysely<Database>,
  blobStore: BlobStore,
  config: Pick<ServerConfig, 'uploadUrlTtlSeconds' | 'maxUploadBytes'>,
  job: JobRow,
): Promise<{ upload_url: string; upload_expires_at: string }> {
  const upload = await blobStore.createUploadUrl(job.upload_key, {
    expiresInSeconds: config.uploadUrlTtlSeconds,
    maxBytes: config.maxUploadBytes,
    contentType: 'text/csv',
  });
  await setUploadExpiry(db, job.id, upload.expiresAt);
  return { upload_url: upload.url, upload_expires_at: upload.expiresAt.toISOString() };
}

/** The job's file, checked to be uploaded and within the size limit (bulk and existing-file jobs alike). */
export async function requireUpload(
  blobStore: BlobStore,
  config: Pick<ServerConfig, 'maxUploadBytes'>,
  job: JobRow,
): Promise<void> {
  const stored = await blobStore.stat(job.upload_key);
  if (!stored) {
    throw new ApiError('conflict', 'The file has not been uploaded yet: PUT it to the upload_url first.');
  }
  if (stored.size > config.maxUploadBytes) {
    throw new ApiError(
      'payload_too_large',
      `The file is ${stored.size.toLocaleString('en-US')} bytes; the largest accepted is ${config.maxUploadBytes.toLocaleString('en-US')}.`,
    );
  }
}
