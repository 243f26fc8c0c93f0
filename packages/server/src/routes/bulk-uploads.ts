import { routes } from '@scrub/contract';
import { completeUpload, getUpload, startUpload, uploadView } from '../bulk/resumable-upload.js';
import type { ServerContext } from '../context.js';
import { getOwnBulkJob } from './bulk.js';

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
