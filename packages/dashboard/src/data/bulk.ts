import type { BulkJob, BulkJobCreateParams, CreatedBulkJob, UploadOptions } from '@scrub/sdk';
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

/** Uploads the file to the job's upload URL (the job, or the URL kept from before a reload). */
export async function uploadBulkFile(
  job: CreatedBulkJob | string,
  file: File,
  options: UploadOptions,
): Promise<void> {
  await (await loadScrub()).bulk.upload(job, file, options);
}

/** Submits the job (it is charged now): the balance and the file list are read again. */
export async function submitBulkJob(jobId: string): Promise<BulkJob> {
  const job = await (await loadScrub()).bulk.submit(jobId);
  creditEvent();
  void refreshFiles();
  return job;
}
