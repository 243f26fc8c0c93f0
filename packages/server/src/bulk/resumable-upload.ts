import { randomUUID } from 'node:crypto';
import type { ResumableUpload } from '@scrub/contract';
import type { Kysely, Selectable } from 'kysely';
import type { BlobStore, StoredPart } from '../blob-store/blob-store.js';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Database, ResumableUploadTable } from '../storage/schema.js';
import type { JobRow } from './job-store.js';

type UploadRow = Selectable<ResumableUploadTable>;
type Settings = Pick<
  ServerConfig,
  'maxUploadBytes' | 'uploadUrlTtlSeconds' | 'uploadPartBytes' | 'unsubmittedJobs'
>;

/** S3 takes at most 10,000 parts: a file that would need more gets larger parts. */
const MAX_PARTS = 10_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const partCount = (row: UploadRow) => Math.ceil(row.size / row.part_size);

/** Part `n`'s bytes `[start, end)` of the file. */
function partRange(row: UploadRow, partNumber: number): { start: number; end: number } {
  const start = (partNumber - 1) * row.part_size;
  return { start, end: Math.min(start + row.part_size, row.size) };
}

function requireAwaitingUpload(job: JobRow): void {
  if (job.status !== 'awaiting_upload') {
    throw new ApiError(
      'conflict',
      `This job was already submitted (it is ${job.status}): its file cannot change.`,
    );
  }
}

/**
 * Starts an upload in parts of the job's file. Its parts are removed if it is not completed while
 * the job may still be submitted (the unsubmitted-job TTL, when the job itself is removed).
 */
export async function startUpload(
  db: Kysely<Database>,
  blobStore: BlobStore,
  config: Settings,
  job: JobRow,
  size: number,
): Promise<UploadRow> {
  requireAwaitingUpload(job);
  if (size > config.maxUploadBytes) {
    throw new ApiError(
      'payload_too_large',
      `The file is ${size.toLocaleString('en-US')} bytes; the largest accepted is ${config.maxUploadBytes.toLocaleString('en-US')}.`,
    );
  }
  if (await blobStore.stat(job.upload_key)) {
    throw new ApiError('conflict', "This job's file was uploaded already: submit the job.");
  }
  const storeUploadId = await blobStore.startParts(job.upload_key, 'text/csv');
  const now = new Date();
  const expiresAt = new Date(job.created_at.getTime() + config.unsubmittedJobs.ttlSeconds * 1000);
  const row = await db
    .insertInto('resumable_uploads')
    .values({
      id: randomUUID(),
      job_id: job.id,
      upload_key: job.upload_key,
      store_upload_id: storeUploadId,
      size,
      part_size: Math.max(config.uploadPartBytes, Math.ceil(size / MAX_PARTS)),
      created_at: now,
      expires_at: expiresAt > now ? expiresAt : now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row;
}

/** The job's upload with this id; any other id (another job's, another account's) is a 404. */
export async function getUpload(db: Kysely<Database>, job: JobRow, uploadId: string): Promise<UploadRow> {
  const row = UUID.test(uploadId)
    ? await db
        .selectFrom('resumable_uploads')
        .selectAll()
        .where('id', '=', uploadId)
        .where('job_id', '=', job.id)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError('not_found', `No upload ${uploadId} for job ${job.id}: start a new one.`);
  return row;
}

/** The parts the store holds: null when the store no longer has the upload (completed or aborted). */
async function storedParts(blobStore: BlobStore, row: UploadRow): Promise<StoredPart[] | null> {
  return blobStore.listParts(row.upload_key, row.store_upload_id);
}

/** The upload as the API answers it: parts held at their right size, and fresh URLs for the rest. */
export async function uploadView(
  blobStore: BlobStore,
  config: Settings,
  row: UploadRow,
): Promise<ResumableUpload> {
  const count = partCount(row);
  const base = {
    upload_id: row.id,
    job_id: row.job_id,
    size: row.size,
    part_size: row.part_size,
    part_count: count,
    expires_at: row.expires_at.toISOString(),
  };
  const urlsExpireAt = new Date(Date.now() + config.uploadUrlTtlSeconds * 1000).toISOString();
  if (row.completed_at) {
    return {
      ...base,
      bytes_received: row.size,
      parts_received: Array.from({ length: count }, (_, i) => i + 1),
      parts_to_send: [],
      urls_expire_at: urlsExpireAt,
      completed: true,
    };
  }
  const parts = await storedParts(blobStore, row);
  if (!parts)
    throw new ApiError('not_found', `Upload ${row.id} was abandoned and its parts removed: start a new one.`);
  const good = parts.filter((part) => {
    const { start, end } = partRange(row, part.partNumber);
    return part.partNumber <= count && part.size === end - start;
  });
  const received = new Set(good.map((part) => part.partNumber));
  const toSend = [];
  for (let partNumber = 1; partNumber <= count; partNumber++) {
    if (received.has(partNumber)) continue;
    const range = partRange(row, partNumber);
    const { url } = await blobStore.partUploadUrl(row.upload_key, row.store_upload_id, partNumber, {
      expiresInSeconds: config.uploadUrlTtlSeconds,
      maxBytes: range.end - range.start,
    });
    toSend.push({ part_number: partNumber, ...range, url });
  }
  return {
    ...base,
    bytes_received: good.reduce((sum, part) => sum + part.size, 0),
    parts_received: [...received].sort((a, b) => a - b),
    parts_to_send: toSend,
    urls_expire_at: urlsExpireAt,
    completed: false,
  };
}

/** Why the parts held cannot make the file yet: a 400 for a wrong part, a 409 for missing ones. */
function checkParts(row: UploadRow, parts: StoredPart[]): void {
  const count = partCount(row);
  for (const part of parts) {
    if (part.partNumber > count) {
      throw new ApiError(
        'bad_request',
        `Part ${part.partNumber} is past the end: a file of ${row.size} bytes in parts of ${row.part_size} has ${count} parts.`,
      );
    }
    const { start, end } = partRange(row, part.partNumber);
    if (part.size !== end - start) {
      throw new ApiError(
        'bad_request',
        `Part ${part.partNumber} has ${part.size} bytes; it must have ${end - start} (bytes ${start} to ${end - 1} of the file). Send it again.`,
      );
    }
  }
  const held = new Set(parts.map((part) => part.partNumber));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !held.has(n));
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ', ...' : '');
    throw new ApiError(
      'conflict',
      `${missing.length} of ${count} parts have not arrived (${shown}): send them, then complete the upload.`,
    );
  }
}

/**
 * Puts the parts together as the job's file, once: of two calls at once, one does it and the other
 * answers what it did; a call after it answers the completed upload.
 */
export async function completeUpload(
  db: Kysely<Database>,
  blobStore: BlobStore,
  job: JobRow,
  row: UploadRow,
): Promise<UploadRow> {
  if (row.completed_at) return row;
  requireAwaitingUpload(job);
  const parts = await storedParts(blobStore, row);
  if (!parts)
    throw new ApiError('not_found', `Upload ${row.id} was abandoned and its parts removed: start a new one.`);
  checkParts(row, parts);
  const claimed = await db
    .updateTable('resumable_uploads')
    .set({ completed_at: new Date() })
    .where('id', '=', row.id)
    .where('completed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return getUpload(db, job, row.id);
  try {
    await blobStore.completeParts(row.upload_key, row.store_upload_id, parts);
  } catch (error) {
    await db.updateTable('resumable_uploads').set({ completed_at: null }).where('id', '=', row.id).execute();
    throw error;
  }
  return claimed;
}

/** How many abandoned uploads one sweep removes; the next sweep takes the rest. */
const BATCH = 500;

/**
 * Removes uploads past their deadline: an unfinished one's parts go from the store (S3 keeps and
 * bills an incomplete multipart upload's parts until it is aborted). Answers how many went.
 */
export async function removeAbandonedUploads(
  db: Kysely<Database>,
  blobStore: BlobStore,
  now: Date,
): Promise<number> {
  const stale = await db
    .selectFrom('resumable_uploads')
    .selectAll()
    .where('expires_at', '<', now)
    .orderBy('expires_at')
    .limit(BATCH)
    .execute();
  for (const row of stale) {
    if (!row.completed_at) await blobStore.abortParts(row.upload_key, row.store_upload_id);
    await db.deleteFrom('resumable_uploads').where('id', '=', row.id).execute();
  }
  return stale.length;
}
