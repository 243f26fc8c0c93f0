import { Readable } from 'node:stream';
import { type FileListQuery, type JobCredits, messages, PROOF_KEYS_PATH, routes } from '@scrub/contract';
import { creditsOfJob, jobCredits } from '../account/job-credits.js';
import { requireActivePlan } from '../account/plan-status.js';
import { getProfile } from '../account/profiles.js';
import { importExistingFile } from '../bulk/existing-file.js';
import { fileLinks, recordsOf } from '../bulk/file-mail.js';
import { removeFile, requireFileKept } from '../bulk/file-removal.js';
import {
  createJob,
  getJobByReference,
  getOwnJob,
  type JobRow,
  listSubmittedJobs,
} from '../bulk/job-store.js';
import { bulkJobOf, fileViewOf } from '../bulk/job-view.js';
import {
  CLEAN_FILTER_NOTICE_HEADER,
  cleanFilterNotice,
  filterResultCsv,
  hasCallableNow,
  isNoFilter,
  requireCallableNowColumn,
  resultFilterOf,
} from '../bulk/result-filter.js';
import { ResultRows } from '../bulk/result-rows.js';
import { grantJobUpload, requireUpload } from '../bulk/upload-grant.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import { RateLimiter } from '../http/rate-limiter.js';
import type { RouteHandler } from '../http/route-registry.js';
import { fileStatement } from '../proof/file-statement.js';

/** Mails of files an account may ask for in an hour (each request sends to at most 5 addresses). */
const FILE_MAILS_PER_HOUR = 10;

/**
 * `Content-Disposition` for a download of `report.csv` as `report-scrubbed.csv`: an ASCII name for
 * old clients and the exact name in RFC 5987 form (a header value cannot hold other characters).
 */
function attachment(fileName: string, suffix: string): string {
  const name = `${fileName.replace(/\.csv$/i, '')}${suffix}.csv`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The export page's list, the public file page, both downloads, and Upload Existing Files. */
export function registerFiles(context: ServerContext): void {
  const { registry, database, publicUrl, config } = context;
  const { db } = database;
  registry.add(routes.createExistingFile, createExistingFile(context));
  registry.add(routes.submitExistingFile, async ({ principal, params }) =>
    fileViewOf(
      await storeExisting(context, await getOwnJob(db, principal.profileId, params.job_id)),
      publicUrl(),
      config.fileRetentionDays,
    ),
  );
  registry.add(routes.listFiles, listFiles(context));
  registry.add(routes.getFile, async ({ params }) => {
    const job = await getJobByReference(db, params.file_reference);
    return fileViewOf(job, publicUrl(), config.fileRetentionDays, await creditsOfJob(db, job));
  });
  registry.add(routes.deleteFile, deleteFile(context));
  registry.add(routes.downloadResult, downloadResult(context));
  const resultRows = new ResultRows(context.blobStore);
  registry.add(routes.listResultRows, async ({ params, query }) => {
    const row = await getJobByReference(db, params.file_reference);
    requireFileKept(row);
    return resultRows.page(row, query);
  });
  registry.add(routes.emailFile, emailFile(context));
  registry.add(routes.getFileProof, getFileProof(context));
  registry.add(routes.downloadUpload, downloadUpload(context));
}

/** The seed gates Upload Existing Files on an active plan, and on nothing else (no credits are used). */
async function requireActive({ database }: ServerContext, profileId: string): Promise<void> {
  requireActivePlan(await getProfile(database.db, profileId));
}

/** Checks and stores an uploaded existing file; a job stored already is answered as it stands. */
async function storeExisting(context: ServerContext, job: JobRow): Promise<JobRow> {
  const { database, blobStore, config } = context;
  if (job.file_method !== 'upload') throw new ApiError('not_found', `No existing-file upload ${job.id}.`);
  if (job.status !== 'awaiting_upload') return job;
  await requireActive(context, job.profile_id);
  await requireUpload(blobStore, config, job);
  return importExistingFile(database.db, blobStore, job);
}

function createExistingFile(context: ServerContext): RouteHandler<typeof routes.createExistingFile> {
  const { database, blobStore, config, publicUrl } = context;
  const { db } = database;
  return async ({ principal, body }) => {
    await requireActive(context, principal.profileId);
    const job = await createJob(db, {
      profileId: principal.profileId,
      fileName: body.file_name,
      fileMethod: 'upload',
      phoneCol: body.phone_col,
      headerRow: true,
      mapping: {
        line_type: body.line_type_col,
        ...(body.dnc_col === undefined ? {} : { dnc: body.dnc_col }),
      },
    });
    if (body.csv_content !== undefined) {
      await blobStore.write(job.upload_key, Readable.from([Buffer.from(body.csv_content)]), 'text/csv');
      const stored = await storeExisting(context, job);
      return {
        ...bulkJobOf(stored, publicUrl()),
        message: 'File stored: it is in your files, charged nothing.',
        upload_url: null,
        upload_expires_at: null,
        file: fileViewOf(stored, publicUrl(), config.fileRetentionDays),
      };
    }
    return {
      ...bulkJobOf(job, publicUrl()),
      message: 'Job created: PUT the CSV (Content-Type: text/csv) to upload_url, then submit it.',
      ...(await grantJobUpload(db, blobStore, config, job)),
      file: null,
    };
  };
}

/** The file page's links carry the export filters, so "Get CSV" (and a failed job's part) downloads what the page asked for. */
function withFilters(
  row: JobRow,
  query: FileListQuery,
  publicUrl: string,
  retentionDays: number,
  credits?: JobCredits,
) {
  const view = fileViewOf(row, publicUrl, retentionDays, credits);
  const filters = new URLSearchParams();
  if (query.line_type && query.line_type !== 'all') filters.set('line_type', query.line_type);
  if (query.dnc && query.dnc !== 'all') filters.set('dnc', query.dnc);
  // Only a result with the column can be filtered on it: the others' links go without it.
  if (query.callable_now && query.callable_now !== 'all' && hasCallableNow(row))
    filters.set('callable_now', query.callable_now);
  if (filters.size > 0) {
    if (view.file_url && view.file_url !== 'Failed') view.file_url += `?${filters}`;
    if (view.part_url) view.part_url += `?${filters}`;
  }
  return view;
}

function listFiles({ database, publicUrl, config }: ServerContext): RouteHandler<typeof routes.listFiles> {
  return async ({ principal, query }) => {
    const { rows, total } = await listSubmittedJobs(database.db, principal.profileId, query);
    const credits = await jobCredits(database.db, rows);
    return {
      files: rows.map((row) =>
        withFilters(row, query, publicUrl(), config.fileRetentionDays, credits.get(row.id)),
      ),
      page: query.page,
      total_pages: Math.max(1, Math.ceil(total / query.limit)),
      total_files_count: total,
    };
  };
}

function downloadResult({ database, blobStore }: ServerContext): RouteHandler<typeof routes.downloadResult> {
  return async ({ params, query, reply }) => {
    const job = await getJobByReference(database.db, params.file_reference);
    // Completed, or a streamed job cut off part-way: the result of the rows it scrubbed.
    requireFileKept(job);
    if (job.result_key === null) throw new ApiError('results_not_ready', messages.resultsNotReady);
    const filter = resultFilterOf(query);
    requireCallableNowColumn(job, filter.callableNow);
    const result = await blobStore.read(job.result_key);
    if (!result) throw new ApiError('file_not_found', messages.noFileFound);
    reply
      .type('text/csv; charset=utf-8')
      // A failed job's kept result is the part of the file it scrubbed: named so, not to pass for the whole.
      .header(
        'content-disposition',
        attachment(job.file_name, job.status === 'failed' ? '-scrubbed-part' : '-scrubbed'),
      );
    const notice = filter.dnc === '0' ? cleanFilterNotice(job.dnc_status) : null;
    if (notice !== null) reply.header(CLEAN_FILTER_NOTICE_HEADER, notice);
    return isNoFilter(filter) ? result : filterResultCsv(result, filter);
  };
}

function emailFile({ database, publicUrl, mailer }: ServerContext): RouteHandler<typeof routes.emailFile> {
  const fileMailLimit = new RateLimiter(FILE_MAILS_PER_HOUR, 3600_000);
  return async ({ principal, params, body }) => {
    const job = await getJobByReference(database.db, params.file_reference);
    // Only the owner mails a file: anyone else is told what an unknown reference gets.
    if (job.profile_id !== principal.profileId) throw new ApiError('file_not_found', messages.noFileFound);
    requireFileKept(job);
    if (job.status !== 'completed' || job.result_key === null)
      throw new ApiError('results_not_ready', messages.resultsNotReady);
    requireCallableNowColumn(job, body.callable_now);
    const waitSeconds = fileMailLimit.hit(principal.profileId);
    if (waitSeconds > 0) {
      throw new ApiError(
        'rate_limited',
        `At most ${FILE_MAILS_PER_HOUR} file e-mails an hour: try again in ${Math.ceil(waitSeconds / 60)} min.`,
        { headers: { 'retry-after': String(waitSeconds) } },
      );
    }
    const to = [...new Set(body.to ?? [principal.email])];
    const text = [
      `${principal.email} sent you the file ${job.file_name}, scrubbed by Scrub: ${recordsOf(job)}.`,
      ...fileLinks(job, publicUrl(), body),
    ].join('\n\n');
    for (const address of to) {
      await mailer.send({
        kind: 'file_shared',
        to: address,
        subject: `Scrubbed file: ${job.file_name}`,
        text,
      });
    }
    return { message: `Sent to ${to.join(', ')}.`, sent_to: to };
  };
}

function getFileProof({
  database,
  publicUrl,
  proofSigner,
}: ServerContext): RouteHandler<typeof routes.getFileProof> {
  const { db } = database;
  return async ({ params }) => {
    const job = await getJobByReference(db, params.file_reference);
    // Public by reference, like the downloads: the account is named by its id (`userId` of GET
    // /user, which its owner can show), never by its e-mail.
    const { jws, statement } = await proofSigner.sign(
      fileStatement(job, { id: job.profile_id, email: null }),
    );
    return { jws, statement, keys_url: `${publicUrl()}${PROOF_KEYS_PATH}` };
  };
}

function downloadUpload({ database, blobStore }: ServerContext): RouteHandler<typeof routes.downloadUpload> {
  return async ({ params, reply }) => {
    const job = await getJobByReference(database.db, params.file_reference);
    requireFileKept(job);
    const upload = job.status === 'awaiting_upload' ? null : await blobStore.read(job.upload_key);
    if (!upload) throw new ApiError('file_not_found', messages.noFileFound);
    reply.type('text/csv').header('content-disposition', attachment(job.file_name, ''));
    return upload;
  };
}

/**
 * The owner deletes a file's upload and result now. Someone else, or a job never submitted (not a
 * file yet), is told what an unknown reference gets. Credits are not touched.
 */
function deleteFile({
  database,
  blobStore,
  publicUrl,
  config,
}: ServerContext): RouteHandler<typeof routes.deleteFile> {
  return async ({ principal, params }) => {
    const job = await getJobByReference(database.db, params.file_reference);
    if (job.profile_id !== principal.profileId || job.status === 'awaiting_upload')
      throw new ApiError('file_not_found', messages.noFileFound);
    const removed = await removeFile(database.db, blobStore, job, 'customer');
    return fileViewOf(removed, publicUrl(), config.fileRetentionDays);
  };
}
