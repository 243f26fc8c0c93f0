import type { Kysely } from 'kysely';
import type { BlobStore } from '../blob-store/blob-store.js';
import type { ServerConfig } from '../config.js';
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
