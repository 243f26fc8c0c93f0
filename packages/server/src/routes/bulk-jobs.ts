import { Readable } from 'node:stream';
import { routes } from '@scrub/contract';
import { UnprocessableFile } from '../bulk/bulk-worker.js';
import {
  bulkJobOf,
  createJob,
  getOwnJob,
  type JobRow,
  setUploadExpiry,
  submitJob,
  uploadKeyOf,
} from '../bulk/job-store.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../http/api-error.js';

const QUEUED_MESSAGE =
  'Your file is queued. It can take up to 20 minutes depending on the number of records; an e-mail is sent when it is ready.';

/** Bulk jobs: create (upload URL or inline CSV), submit (count, charge, queue), follow. */
export function registerBulkJobs({
  registry,
  database,
  blobStore,
  bulk,
  config,
  publicUrl,
}: ServerContext): void {
  const { processor, worker } = bulk;
  const { db } = database;

  /** Counts the records, charges them and queues the job; a file that cannot be read is a 400 and costs nothing. */
  async function submit(job: JobRow): Promise<JobRow> {
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
    let records: number;
    try {
      records = await processor.count(job);
    } catch (error) {
      if (error instanceof UnprocessableFile) {
        throw new ApiError(error.reason === 'empty' ? 'csv_empty' : 'bad_request', error.message);
      }
      throw error;
    }
    const queued = await submitJob(db, job, records);
    worker.notify();
    return queued;
  }

  registry.add(routes.createBulkJob, async ({ principal, body }) => {
    const job = await createJob(
      db,
      {
        profileId: principal.profileId,
        fileName: body.file_name,
        fileMethod: 'api',
        phoneCol: body.phone_col,
        headerRow: body.header_row === 1,
        mapping: body.mapping,
      },
      uploadKeyOf,
    );
    if (body.csv_content !== undefined) {
      // The inline variant: the file comes with the job, which is submitted at once.
      await blobStore.write(job.upload_key, Readable.from([Buffer.from(body.csv_content)]), 'text/csv');
      const queued = await submit(job);
      return {
        ...bulkJobOf(queued, publicUrl()),
        message: QUEUED_MESSAGE,
        upload_url: null,
        upload_expires_at: null,
      };
    }
    const upload = await blobStore.createUploadUrl(job.upload_key, {
      expiresInSeconds: config.uploadUrlTtlSeconds,
      maxBytes: config.maxUploadBytes,
      contentType: 'text/csv',
    });
    await setUploadExpiry(db, job.id, upload.expiresAt);
    return {
      ...bulkJobOf(job, publicUrl()),
      message: 'Job created: PUT the CSV (Content-Type: text/csv) to upload_url, then submit the job.',
      upload_url: upload.url,
      upload_expires_at: upload.expiresAt.toISOString(),
    };
  });

  registry.add(routes.submitBulkJob, async ({ principal, params }) => {
    const job = await getOwnJob(db, principal.profileId, params.job_id);
    // Submitting again is answered with the job as it stands, charged once: a client whose first
    // submit timed out can safely send it again.
    return bulkJobOf(job.status === 'awaiting_upload' ? await submit(job) : job, publicUrl());
  });

  registry.add(routes.getBulkJob, async ({ principal, params }) =>
    bulkJobOf(await getOwnJob(db, principal.profileId, params.job_id), publicUrl()),
  );
}
