import type { Kysely } from 'kysely';
import type { BlobStore } from '../blob-store/blob-store.js';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';
import { type JobRow, setUploadExpiry } from './job-store.js';

type UploadSettings = Pick<ServerConfig, 'uploadUrlTtlSeconds' | 'maxUploadBytes'>;

/**
 * A signed URL to PUT one CSV to, under `key` (bulk files, existing files and suppression imports
 * alike): valid for the configured time, up to the configured size.
 */
export async function grantUpload(
  blobStore: BlobStore,
  config: UploadSettings,
  key: string,
): Promise<{ upload_url: string; upload_expires_at: string; expiresAt: Date }> {
  const upload = await blobStore.createUploadUrl(key, {
    expiresInSeconds: config.uploadUrlTtlSeconds,
    maxBytes: config.maxUploadBytes,
    contentType: 'text/csv',
  });
  return {
    upload_url: upload.url,
    upload_expires_at: upload.expiresAt.toISOString(),
    expiresAt: upload.expiresAt,
  };
}

/** A signed URL to PUT the job's CSV to, its expiry recorded on the job (bulk and existing-file jobs alike). */
export async function grantJobUpload(
  db: Kysely<Database>,
  blobStore: BlobStore,
  config: UploadSettings,
  job: JobRow,
): Promise<{ upload_url: string; upload_expires_at: string }> {
  const { upload_url, upload_expires_at, expiresAt } = await grantUpload(blobStore, config, job.upload_key);
  await setUploadExpiry(db, job.id, expiresAt);
  return { upload_url, upload_expires_at };
}

/** The file under `key`, checked to be uploaded and within the size limit. */
export async function requireUploaded(
  blobStore: BlobStore,
  config: Pick<ServerConfig, 'maxUploadBytes'>,
  key: string,
): Promise<void> {
  const stored = await blobStore.stat(key);
  if (!stored) {
    throw new ApiError('conflict', 'The file has not been uploaded yet: PUT it to the upload_url first.');
  }
  refuseTooLarge(stored.size, config);
}

/** A file of `size` bytes over the size limit is refused (413). */
export function refuseTooLarge(size: number, config: Pick<ServerConfig, 'maxUploadBytes'>): void {
  if (size > config.maxUploadBytes) {
    throw new ApiError(
      'payload_too_large',
      `The file is ${size.toLocaleString('en-US')} bytes; the largest accepted is ${config.maxUploadBytes.toLocaleString('en-US')}.`,
    );
  }
}

/** The job's file, checked to be uploaded and within the size limit (bulk and existing-file jobs alike). */
export function requireUpload(
  blobStore: BlobStore,
  config: Pick<ServerConfig, 'maxUploadBytes'>,
  job: JobRow,
): Promise<void> {
  return requireUploaded(blobStore, config, job.upload_key);
}
