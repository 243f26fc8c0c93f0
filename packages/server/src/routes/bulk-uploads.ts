import { routes } from '@scrub/contract';
import { getOwnJob, type JobRow } from '../bulk/job-store.js';
import { completeUpload, getUpload, startUpload, uploadView } from '../bulk/resumable-upload.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';

/** The caller's bulk job: an existing-file upload is not one (it is submitted at /files/existing). */
async function getOwnBulkJob({ database }: ServerContext, profileId: string, jobId: string): Promise<JobRow> {
  const job = await getOwnJob(database.db, profileId, jobId);
  if (job.file_method === 'upload') throw new ApiError('not_found', `No bulk job ${jobId}.`);
  return job;
}

/** Resumable uploads of a bulk job's file: start, see what arrived (and resume), complete. */
export function registerBulkUploads(context: ServerContext): void {
  const { registry, database, blobStore, config } = context;
  const { db } = database;
  registry.add(routes.startBulkUpload, async ({ principal, params, body }) => {
    const job = await getOwnBulkJob(context, principal.profileId, params.job_id);
    const row = await startUpload(db, blobStore, config, job, body.size);
    return uploadView(blobStore, config, row);
  });
  registry.add(routes.getBulkUpload, async ({ principal, params }) => {
    const job = await getOwnBulkJob(context, principal.profileId, params.job_id);
    return uploadView(blobStore, config, await getUpload(db, job, params.upload_id));
  });
  registry.add(routes.completeBulkUpload, async ({ principal, params }) => {
    const job = await getOwnBulkJob(context, principal.profileId, params.job_id);
    const row = await completeUpload(db, blobStore, job, await getUpload(db, job, params.upload_id));
    return uploadView(blobStore, config, row);
  });
}
