import type { Kysely } from 'kysely';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ApiError } from '../errors/api-error.js';
import type { Database, FileRemovedBy } from '../storage/schema.js';
import type { JobRow } from './job-store.js';
import { resultIndexKey } from './result-rows.js';

const DAY_MS = 86_400_000;

/** Files one query of the retention pass takes; the pass goes on until its deadline. */
const BATCH = 100;

/** How long one retention pass may run; what it leaves is the next pass's. */
export const RETENTION_PASS_MS = 30_000;

/** When a file's upload and result are removed by the retention (SCRUB_FILE_RETENTION_DAYS). */
export function fileExpiresAt(row: Pick<JobRow, 'created_at'>, retentionDays: number): Date {
  return new Date(row.created_at.getTime() + retentionDays * DAY_MS);
}

const REASONS: Record<FileRemovedBy, string> = {
  retention: 'files are kept for a set number of days after they are uploaded, then deleted',
  customer: 'its owner deleted it',
  account: 'its account was deleted',
};

/** Why a file's downloads answer 410, with the date. */
export function fileRemovedMessage(removedAt: Date, removedBy: FileRemovedBy): string {
  return `This file's upload and result were deleted on ${removedAt.toISOString().slice(0, 10)}: ${REASONS[removedBy]}. Its counts and proof of scrub are kept.`;
}

/** A 410 naming when and why, for a file whose upload and result are gone. */
export function requireFileKept(row: JobRow): void {
  if (row.files_removed_at !== null) {
    throw new ApiError(
      'file_expired',
      fileRemovedMessage(row.files_removed_at, row.files_removed_by ?? 'retention'),
    );
  }
}

/**
 * Deletes the file's upload and result from the file store, with the result's page index (the
 * review's; a key already gone is no error).
 */
async function deleteBlobs(
  blobStore: BlobStore,
  row: Pick<JobRow, 'upload_key' | 'result_key'>,
): Promise<void> {
  await blobStore.delete(row.upload_key);
  if (row.result_key === null) return;
  await blobStore.delete(row.result_key);
  await blobStore.delete(resultIndexKey(row.result_key));
}

/** Marks the row removed, unless it was already; answers the row as it now is. */
async function markRemoved(
  db: Kysely<Database>,
  jobId: string,
  removedBy: FileRemovedBy,
  now: Date,
): Promise<JobRow | undefined> {
  return db
    .updateTable('bulk_jobs')
    .set({ files_removed_at: now, files_removed_by: removedBy, updated_at: now })
    .where('id', '=', jobId)
    .where('files_removed_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * A file's upload and result deleted now, at its owner's asking or its account's deletion. A job
 * still queued or running is a 409: its worker is reading the upload. The row stays, marked.
 */
export async function removeFile(
  db: Kysely<Database>,
  blobStore: BlobStore,
  row: JobRow,
  removedBy: FileRemovedBy,
): Promise<JobRow> {
  if (row.files_removed_at !== null) return row;
  if (row.status === 'queued' || row.status === 'processing') {
    throw new ApiError(
      'conflict',
      'This file is being scrubbed: delete it once its job has completed or failed.',
    );
  }
  await deleteBlobs(blobStore, row);
  return (await markRemoved(db, row.id, removedBy, new Date())) ?? row;
}

/**
 * One retention pass: every finished file created before `now - retentionDays` loses its upload and
 * result, oldest first, until `deadlineMs` has passed. Answers how many files it removed.
 */
export async function expireOldFiles(
  db: Kysely<Database>,
  blobStore: BlobStore,
  retentionDays: number,
  now: Date,
  deadlineMs = RETENTION_PASS_MS,
): Promise<number> {
  const stopAt = Date.now() + deadlineMs;
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let removed = 0;
  while (Date.now() < stopAt) {
    const old = await db
      .selectFrom('bulk_jobs')
      .select(['id', 'upload_key', 'result_key'])
      .where('files_removed_at', 'is', null)
      .where('created_at', '<', cutoff)
      .where('status', 'in', ['completed', 'failed'])
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    for (const row of old) {
      if (Date.now() >= stopAt) return removed;
      await deleteBlobs(blobStore, row);
      if (await markRemoved(db, row.id, 'retention', now)) removed++;
    }
    if (old.length < BATCH) break;
  }
  return removed;
}

/** The sweep the bulk worker's expiry runs: files older than `days` (SCRUB_FILE_RETENTION_DAYS). */
export function fileRetentionSweep(db: Kysely<Database>, blobStore: BlobStore, days: number) {
  return {
    what: 'uploads and results past their retention',
    remove: (now: Date) => expireOldFiles(db, blobStore, days, now),
  };
}
