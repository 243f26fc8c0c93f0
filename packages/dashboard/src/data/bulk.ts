import {
  type BulkJob,
  type BulkJobCreateParams,
  type CreatedBulkJob,
  NotFoundError,
  type PartUploadOptions,
} from '@scrub/sdk';
import { loadScrub } from '../api/load-scrub';
import { creditEvent } from '../credits/credit-events';
import { refreshFiles } from './files';

/**
 * A bulk job in three calls, as the wizard shows them: create, upload (with progress, from the
 * File on disk), submit. Not queries: the wizard keeps its own state between them.
 */
export async function createBulkJob(params: BulkJobCreateParams): Promise<CreatedBulkJob> {
  return (await loadScrub()).bulk.create(params);
}

/**
 * Uploads the job's file in parts: a dropped connection costs the part in flight, and the SDK
 * sends the rest once the service says what it holds. With `uploadId` (kept from before a reload),
 * resumes that upload; one the service no longer has starts anew. A service without uploads in
 * parts gets the file whole, at the job's upload URL, as before.
 */
export async function uploadBulkFile(
  job: { job_id: string; upload_url: string | null },
  file: File,
  options: PartUploadOptions,
): Promise<void> {
  const scrub = await loadScrub();
  try {
    await scrub.bulk.uploadInParts(job.job_id, file, options);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    if (options.uploadId) return uploadBulkFile(job, file, { ...options, uploadId: undefined });
    if (!job.upload_url) throw error;
    await scrub.bulk.upload(job.upload_url, file, options);
  }
}

/** Submits the job (it is charged now): the balance and the file list are read again. */
export async function submitBulkJob(jobId: string): Promise<BulkJob> {
  const job = await (await loadScrub()).bulk.submit(jobId);
  creditEvent();
  void refreshFiles();
  return job;
}
