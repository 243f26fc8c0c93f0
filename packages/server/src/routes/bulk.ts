import { Readable } from 'node:stream';
import { messages, routes } from '@scrub/contract';
import { creditsOfJob } from '../account/job-credits.js';
import { getProfile, hasUnlimited } from '../account/profiles.js';
import { UnprocessableFile } from '../bulk/bulk-worker.js';
import { createJob, getOwnJob, type JobRow, submitJob } from '../bulk/job-store.js';
import { bulkJobOf } from '../bulk/job-view.js';
import { runStreamJob } from '../bulk/stream-job.js';
import { grantJobUpload, refuseTooLarge, requireUpload } from '../bulk/upload-grant.js';
import { lookupPriceOf, refuseStreamedLookup } from '../carrier-lookup/bulk-lookups.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import type { RouteHandler } from '../http/route-registry.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { countedLists, namesOf } from '../operator-lists/operator-lists.js';
import { recordPriceOf, refuseUnanswerableConsentColumn } from '../reassigned/bulk-consent.js';
import { dncNotice, refusePausedChecks } from '../reference-data/dnc-readiness.js';

const isRunning = (job: JobRow) => job.status === 'queued' || job.status === 'processing';

/** Bulk jobs: create (upload URL or inline CSV), submit (count, charge, queue), follow. */
export function registerBulk(context: ServerContext): void {
  const { registry } = context;
  registry.add(routes.createBulkJob, createBulkJob(context));
  registry.add(routes.submitBulkJob, submitBulkJob(context));
  registry.add(routes.quoteBulkJob, quoteBulkJob(context));
  registry.add(routes.streamBulkJob, streamBulkJob(context));
  registry.add(routes.getBulkJob, getBulkJob(context));
}

/** Reads the file; one that cannot be read is a 400 and costs nothing. */
async function readFile<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof UnprocessableFile) {
      throw new ApiError(error.reason === 'empty' ? 'csv_empty' : 'bad_request', error.message);
    }
    throw error;
  }
}

/**
 * Counts the records, charges them and queues the job. `file`: the bytes just stored, when the job
 * came with them (inline): checked and counted as they are, without asking the store again.
 */
async function submit(
  { database, blobStore, bulk, config, referenceData, payments }: ServerContext,
  job: JobRow,
  file?: Buffer,
): Promise<JobRow> {
  // A required list missing or stale: refused now, before any charge, rather than charged and
  // given back when the worker fails the job.
  refusePausedChecks(referenceData, config.requireDnc);
  if (file) refuseTooLarge(file.length, config);
  else await requireUpload(blobStore, config, job);
  const records = await readFile(() => bulk.processor.count(job, file));
  const queued = await submitJob(database.db, job, records);
  payments.balanceWatch.nudge(job.profile_id);
  await bulk.signals.queued();
  return queued;
}

/** The caller's bulk job: an existing-file upload is not one (it is submitted at /files/existing). */
export async function getOwnBulkJob(
  { database }: ServerContext,
  profileId: string,
  jobId: string,
): Promise<JobRow> {
  const job = await getOwnJob(database.db, profileId, jobId);
  if (job.file_method === 'upload') throw new ApiError('not_found', `No bulk job ${jobId}.`);
  return job;
}

function createBulkJob(context: ServerContext): RouteHandler<typeof routes.createBulkJob> {
  const { database, blobStore, config, publicUrl, referenceData } = context;
  const { db } = database;
  return async ({ principal, body }) => {
    // The inline variant is submitted at once: refused before the job is made.
    if (body.csv_content !== undefined) refusePausedChecks(referenceData, config.requireDnc);
    // The operator lists it flags (its own, else the account's default), fixed now: 400 for unknown names.
    const lists = await countedLists(db, referenceData.current(), principal.profileId, body.lists);
    refuseUnanswerableConsentColumn(config.reassigned, referenceData, body.consent_col);
    const lookupPrice = lookupPriceOf(context.carrierLookups, body.lookup);
    const job = await createJob(db, {
      profileId: principal.profileId,
      fileName: body.file_name,
      fileMethod: 'api',
      phoneCol: body.phone_col,
      headerRow: body.header_row === 1,
      mapping: body.mapping,
      // A lookup's answers are read in the Line Type Source column (and Ported, which comes with it).
      columns: body.lookup === undefined ? body.columns : [...body.columns, 'line_type_source'],
      lists: namesOf(lists),
      consentCol: body.consent_col,
      recordPrice: recordPriceOf(config.reassigned, body.consent_col) + lookupPrice,
      lookup: body.lookup,
      lookupPrice,
      mappedHeaders: body.mapped_headers,
    });
    if (body.csv_content !== undefined) {
      // The inline variant: the file comes with the job, which is submitted at once.
      const file = Buffer.from(body.csv_content);
      await blobStore.write(job.upload_key, Readable.from([file]), 'text/csv');
      const queued = await submit(context, job, file);
      return {
        ...bulkJobOf(queued, publicUrl()),
        message: messages.jobQueued,
        upload_url: null,
        upload_expires_at: null,
      };
    }
    return {
      ...bulkJobOf(job, publicUrl()),
      message: 'Job created: PUT the CSV (Content-Type: text/csv) to upload_url, then submit the job.',
      ...(await grantJobUpload(db, blobStore, config, job)),
    };
  };
}

function submitBulkJob(context: ServerContext): RouteHandler<typeof routes.submitBulkJob> {
  return async ({ principal, params }) => {
    const job = await getOwnBulkJob(context, principal.profileId, params.job_id);
    // Submitting again is answered with the job as it stands, charged once: a client whose first
    // submit timed out can safely send it again.
    const submitted = job.status === 'awaiting_upload' ? await submit(context, job) : job;
    return bulkJobOf(submitted, context.publicUrl());
  };
}

/** What submitting would charge, for the wizard's "Found N phone numbers (requires N credits)". */
function quoteBulkJob(context: ServerContext): RouteHandler<typeof routes.quoteBulkJob> {
  const { database, blobStore, bulk, config } = context;
  return async ({ principal, params }) => {
    const job = await getOwnBulkJob(context, principal.profileId, params.job_id);
    if (job.status !== 'awaiting_upload') {
      throw new ApiError(
        'conflict',
        `This job was already submitted and charged ${job.credits_charged} credits.`,
      );
    }
    await requireUpload(blobStore, config, job);
    const counts = await readFile(() => bulk.processor.quote(job));
    const profile = await getProfile(database.db, principal.profileId);
    const unlimited = hasUnlimited(profile);
    const required = unlimited ? 0 : counts.records * job.record_price;
    const paused = profile.plan_status === 'paused';
    return {
      job_id: job.id,
      records: counts.records,
      unique_numbers: counts.uniqueNumbers,
      duplicates: counts.duplicates,
      credits_per_record: job.record_price,
      credits_required: required,
      credits_available: profile.credits,
      unlimited,
      sufficient: !paused && profile.credits >= required,
      plan_paused: paused,
      dnc_lists: counts.dncLists,
      dnc_notice: dncNotice(counts.dncLists, context.referenceData.ageRule.maxAgeDays),
    };
  };
}

/** The file in the body, the result in the answer as rows come (bulk/stream-job.ts). */
function streamBulkJob({
  database,
  blobStore,
  bulk,
  config,
  referenceData,
}: ServerContext): RouteHandler<typeof routes.streamBulkJob> {
  return async ({ principal, query, request, reply }) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'text/csv') {
      throw new ApiError(
        'unsupported_media_type',
        `POST /bulk/jobs/stream takes the CSV file as its body with 'Content-Type: text/csv'; this request sent ${type ? `'${type}'` : 'no Content-Type'}.`,
      );
    }
    if (Number(request.headers['content-length']) > config.maxUploadBytes) {
      throw new ApiError(
        'payload_too_large',
        `The file is ${Number(request.headers['content-length']).toLocaleString('en-US')} bytes; the largest accepted is ${config.maxUploadBytes.toLocaleString('en-US')}.`,
      );
    }
    // Scrubbing without a DNC list would call its numbers clean.
    refusePausedChecks(referenceData, config.requireDnc);
    refuseStreamedLookup(query.lookup);
    const lists = await countedLists(database.db, referenceData.current(), principal.profileId, query.lists);
    const consentCol = query.consent_index ?? query.consent_col;
    refuseUnanswerableConsentColumn(config.reassigned, referenceData, consentCol);
    await runStreamJob(
      { db: database.db, blobStore, bulk, maxUploadBytes: config.maxUploadBytes },
      {
        profileId: principal.profileId,
        fileName: query.file_name,
        phoneCol: query.phone_index ?? query.phone_col ?? 0,
        headerRow: query.header_row === 1,
        columns: query.columns ?? [],
        lists: namesOf(lists),
        consentCol,
        recordPrice: recordPriceOf(config.reassigned, consentCol),
      },
      request.raw,
      reply.raw,
      () => {
        // onSend hooks do not run for an answer written by hand: theirs are added here.
        reply.hijack();
        return { ...reply.getHeaders(), ...SECURITY_HEADERS, 'x-request-id': request.id };
      },
    );
  };
}

/**
 * With `wait`, a job still queued or processing is answered when it ends, or after `wait`
 * seconds with its progress: a client learns of the end at once without polling.
 */
function getBulkJob({ database, bulk, publicUrl }: ServerContext): RouteHandler<typeof routes.getBulkJob> {
  const { db } = database;
  return async ({ principal, params, query, request }) => {
    const watch = query.wait ? bulk.signals.watchEnd(params.job_id) : null;
    try {
      const job = await getOwnJob(db, principal.profileId, params.job_id);
      if (!watch || !isRunning(job)) return bulkJobOf(job, publicUrl(), await creditsOfJob(db, job));
      const timer = setTimeout(watch.stop, (query.wait ?? 0) * 1000);
      request.raw.once('close', watch.stop);
      // Completed by this process's worker: its row comes with the news, not read again.
      const completed = await watch.ended;
      clearTimeout(timer);
      request.raw.off('close', watch.stop);
      const ended = completed ?? (await getOwnJob(db, principal.profileId, params.job_id));
      return bulkJobOf(ended, publicUrl(), await creditsOfJob(db, ended));
    } finally {
      watch?.stop();
    }
  };
}
