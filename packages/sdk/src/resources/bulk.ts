import {
  type BulkJob,
  type BulkJobQuote,
  type CreateBulkJob,
  type CreatedBulkJob,
  JOB_ID_HEADER,
  type OutputColumn,
  type ResumableUpload,
  routes,
} from '@scrub/contract';
import type { RequestOptions, StreamedRequestOptions } from '../client.js';
import { answerHeaders, fetchFunction, pause, streamedBody } from '../core/internal.js';
import { openRanges, type PartSource, sendParts } from '../core/part-upload.js';
import { APIResource } from '../core/resource.js';
import { openSource, putUpload, type UploadSource, uploadBody } from '../core/upload.js';
import type { UploadOptions } from '../core/upload-options.js';
import { BulkJobFailedError, ConflictError, ScrubError } from '../errors.js';

export type { PartSource } from '../core/part-upload.js';
export type { UploadSource } from '../core/upload.js';
export type { UploadOptions } from '../core/upload-options.js';

/** How `bulk.uploadInParts` goes about it. `onProgress` counts the bytes the service holds. */
export interface PartUploadOptions extends UploadOptions {
  /** Resume this upload (an earlier call's, interrupted) rather than start one: only missing parts go. */
  uploadId?: string;
  /** Hears the upload once started or found: keep its `upload_id` to resume after a crash. */
  onUpload?(upload: ResumableUpload): void;
  /** Failures in a row (dropped connection, 5xx, expired part URL) before giving up. Default 5. */
  maxPartRetries?: number;
  /** Hears the upload as the service holds it after a part failed, before the rest is sent. */
  onResume?(upload: ResumableUpload, error: unknown): void;
}

/**
 * `POST /bulk/jobs`. `phone_col` and the `mapping` columns are header texts (matched without regard
 * to case) or 0-based positions; `header_row` is 1 (the default) or 0 for a file without a header.
 * `csv_content` sends a small file inline, which submits the job at once. `consent_col` (header text
 * or position) adds the `Reassigned` result column, at `1 + reassigned_credits` (GET /config) a record.
 * `lookup: 'carrier'` asks a live carrier lookup of each distinct valid number (GET /config's
 * `carrier_lookup`): `Line Type Source` and `Ported` columns, at `carrier_lookup.credits` more a
 * record, given back for numbers the provider did not answer. Queued jobs only: `stream` has no lookups.
 * `mapped_headers: true` names each mapped column of the result with its standard header
 * (`First Name`, `Email`...); by default the result keeps the file's own headers.
 */
export type BulkJobCreateParams = Omit<
  CreateBulkJob,
  'header_row' | 'mapping' | 'columns' | 'mapped_headers'
> &
  Partial<Pick<CreateBulkJob, 'header_row' | 'mapping' | 'columns' | 'mapped_headers'>>;

export interface WaitOptions extends RequestOptions {
  /** Called with the job after every poll: `processed_rows` of `total_rows` while it runs. */
  onProgress?(job: BulkJob): void;
  /**
   * Seconds the service holds each poll while the job runs (`GET /bulk/jobs/{id}?wait=`): it
   * answers as soon as the job ends. Default 20, or 2 with `onProgress`, for fresh progress.
   */
  holdSeconds?: number;
  /** Milliseconds to pause between polls, doubling up to `maxPollInterval`. Default 0: the service holds them. */
  pollInterval?: number;
  /** Default 5 000. */
  maxPollInterval?: number;
}

/** The longest hold asked for: the service holds at most 25 s (`MAX_JOB_WAIT_SECONDS`). */
const DEFAULT_HOLD_SECONDS = 20;
const PROGRESS_HOLD_SECONDS = 2;

export interface RunOptions extends WaitOptions {
  /** The upload's progress, as `upload()` reports it. */
  onUploadProgress?: UploadOptions['onProgress'];
}

/** `stream()`'s job: the phone column by header text or 0-based position, as `create` takes it. */
export interface BulkStreamParams {
  /** The name the dashboard shows. Default `stdin.csv`. */
  file_name?: string;
  phone_col: string | number;
  header_row?: 0 | 1;
  columns?: OutputColumn[];
  /** Operator lists to flag rows with, one `List: <name>` column each, instead of the account's default. */
  lists?: readonly string[];
  /** The consent-date column (header text or 0-based position): adds the `Reassigned` result column. */
  consent_col?: string | number;
}

/** A streamed job under way. */
export interface BulkStream {
  /** The job, for `get()`. */
  jobId: string;
  /**
   * The result CSV as it is made, byte for byte what the job's result download gives. It ends only
   * when the job completed; when the job failed part-way (the credits ran out, the file could not
   * be read further) it errors with `BulkJobFailedError` carrying the job, after the rows that were
   * scrubbed (cut off by the credits or the connection, those rows are charged and their result kept:
   * `job.result_url`); a broken connection is an `APIConnectionError`.
   */
  result: ReadableStream<Uint8Array>;
  /**
   * The job once `result` has been read to its end: the one the SDK fetched then to tell a failed
   * job (so no second request), or fetched now when that one could not be had.
   */
  endedJob(): Promise<BulkJob>;
}

export class Bulk extends APIResource {
  /** Creates a job and answers it with the URL to PUT its file to (see `upload`). */
  create(params: BulkJobCreateParams, options?: RequestOptions): Promise<CreatedBulkJob> {
    return this.client.request(routes.createBulkJob, params, options);
  }

  /**
   * Sends the CSV to a job's upload URL (the job as `create` answered it, or the URL itself), as a
   * stream with `Content-Type: text/csv` and no credentials: the URL is signed. A refused URL is a
   * `PermissionDeniedError` (403: expired or altered), `ConflictError` (409: already used) or
   * `PayloadTooLargeError` (413). Not retried.
   */
  upload(job: CreatedBulkJob | string, source: UploadSource, options: UploadOptions = {}): Promise<void> {
    const url = typeof job === 'string' ? job : job.upload_url;
    if (!url) {
      return Promise.reject(
        new ScrubError('This job has no upload URL: its file was sent inline with the job.'),
      );
    }
    return putUpload(this.client[fetchFunction](), url, source, {
      ...options,
      timeout: options.timeout ?? this.client.timeout,
    });
  }

  /** `POST /bulk/jobs/{job_id}/uploads`: starts an upload of the job's file in parts (see `uploadInParts`). */
  startUpload(jobId: string, size: number, options?: RequestOptions): Promise<ResumableUpload> {
    return this.client.request(routes.startBulkUpload, { job_id: jobId, size }, options);
  }

  /** An upload in parts as the service holds it: the parts received, and fresh URLs for the others. */
  getUpload(jobId: string, uploadId: string, options?: RequestOptions): Promise<ResumableUpload> {
    return this.client.request(routes.getBulkUpload, { job_id: jobId, upload_id: uploadId }, options);
  }

  /** Puts the parts together as the job's file (once; again is harmless). `ConflictError` while parts are missing. */
  completeUpload(jobId: string, uploadId: string, options?: RequestOptions): Promise<ResumableUpload> {
    return this.client.request(routes.completeBulkUpload, { job_id: jobId, upload_id: uploadId }, options);
  }

  /**
   * Sends the job's file in parts and completes the upload: a part that fails (dropped connection,
   * 5xx) is retried from what the service holds, never from byte 0. With `uploadId`, resumes an
   * upload an earlier call (or process) started. The source must be readable by range: a path
   * (Node), a `File`/`Blob`, or bytes; a stream goes with `upload`, whole.
   */
  async uploadInParts(
    jobId: string,
    source: PartSource,
    options: PartUploadOptions = {},
  ): Promise<ResumableUpload> {
    const { uploadId, onUpload, onResume, maxPartRetries = 5, onProgress, signal } = options;
    const reader = await openRanges(source);
    try {
      const upload = uploadId
        ? await this.getUpload(jobId, uploadId, { signal })
        : await this.startUpload(jobId, reader.size, { signal });
      if (upload.size !== reader.size) {
        throw new ScrubError(
          `Upload ${upload.upload_id} is of a file of ${upload.size} bytes; this one has ${reader.size}: start a new upload.`,
        );
      }
      onUpload?.(upload);
      const calls = {
        get: (id: string) => this.getUpload(jobId, id, { signal }),
        complete: (id: string) => this.completeUpload(jobId, id, { signal }),
        fetchImpl: this.client[fetchFunction](),
        sleep: (ms: number, abort?: AbortSignal) => this.client[pause](ms, abort),
      };
      return await sendParts(calls, reader, upload, {
        onProgress,
        signal,
        timeout: options.timeout ?? this.client.timeout,
        maxPartRetries,
        onResume,
      });
    } finally {
      await reader.close();
    }
  }

  /**
   * Counts the uploaded file's records, charges them and queues the job. `InsufficientCreditsError`
   * (402, with `creditsRequired` and `creditsAvailable`) charges nothing; `BadRequestError` for a
   * file that cannot be read (`Csv is empty`, no such phone column...); `ConflictError` when the
   * file was not uploaded or the job was already submitted.
   */
  submit(jobId: string, options?: RequestOptions): Promise<BulkJob> {
    return this.client.request(routes.submitBulkJob, { job_id: jobId }, options);
  }

  /**
   * The job. With `holdSeconds`, a job still queued or processing is answered when it ends, or
   * after that many seconds (at most 25) with its progress.
   */
  get(jobId: string, options?: RequestOptions & { holdSeconds?: number }): Promise<BulkJob> {
    const { holdSeconds, ...rest } = options ?? {};
    const input = holdSeconds ? { job_id: jobId, wait: holdSeconds } : { job_id: jobId };
    return this.client.request(routes.getBulkJob, input, rest);
  }

  /**
   * What submitting an uploaded job would charge (records, distinct numbers, credits required and
   * available, unlimited), before it is charged: nothing is charged by asking.
   */
  quote(jobId: string, options?: RequestOptions): Promise<BulkJobQuote> {
    return this.client.request(routes.quoteBulkJob, { job_id: jobId }, options);
  }

  /**
   * Waits for the job to end: each poll is held by the service until the job ends (or
   * `holdSeconds`), so the end is known at once without a poll interval. Resolves
   * with the completed job; throws `BulkJobFailedError` (carrying the job) for a failed one, and
   * `APIUserAbortError` when `signal` aborts (the job goes on at the service). A job that was never
   * submitted would never end, so it is an error at once. For a deadline, pass
   * `signal: AbortSignal.timeout(ms)`.
   */
  async wait(
    jobId: string,
    { onProgress, holdSeconds, pollInterval = 0, maxPollInterval = 5_000, ...options }: WaitOptions = {},
  ): Promise<BulkJob> {
    // Held no longer than the request may take, with 5 s to spare for the answer itself.
    const timeoutSeconds = Math.floor((options.timeout ?? this.client.timeout) / 1000);
    const hold = Math.max(
      0,
      Math.min(
        holdSeconds ?? (onProgress ? PROGRESS_HOLD_SECONDS : DEFAULT_HOLD_SECONDS),
        timeoutSeconds - 5,
      ),
    );
    for (let delay = pollInterval; ; delay = Math.min(delay * 2, maxPollInterval)) {
      const job = await this.get(jobId, { ...options, holdSeconds: hold });
      onProgress?.(job);
      if (job.status === 'completed') return job;
      if (job.status === 'failed') throw new BulkJobFailedError(job);
      if (job.status === 'awaiting_upload') {
        throw new ScrubError(
          `Bulk job ${jobId} has not been submitted: upload its file and submit it first.`,
        );
      }
      if (delay > 0) await this.client[pause](delay, options.signal);
    }
  }

  /**
   * Scrubs `source` as it is read: it is sent in the request's body (`POST /bulk/jobs/stream`) and
   * the result CSV comes back while it is still being sent, so the first rows arrive before the
   * file has all gone. Charged as a queued job of the same file (in blocks as rows arrive; see
   * docs/api.md). Resolves once the service answers, after the file's first lines: a refusal
   * before any row (`InsufficientCreditsError`, `BadRequestError` for a file it cannot read) is
   * thrown here; a service without the route answers `NotFoundError`. Read `result` while the
   * upload goes on: the service waits for its answer to be read. Not retried.
   */
  async stream(
    source: UploadSource,
    { phone_col, columns, lists, consent_col, ...params }: BulkStreamParams,
    { onUploadProgress, ...options }: RequestOptions & Pick<RunOptions, 'onUploadProgress'> = {},
  ): Promise<BulkStream> {
    const { chunks, length } = await openSource(source);
    const { body } = uploadBody(chunks, (sent) => onUploadProgress?.(sent, length));
    let jobId = '';
    const answer = await this.client.request(
      routes.streamBulkJob,
      {
        ...params,
        ...(typeof phone_col === 'number' ? { phone_index: phone_col } : { phone_col }),
        ...(columns && columns.length > 0 ? { columns: columns.join(',') } : {}),
        ...(lists === undefined ? {} : { lists: lists.join(',') }),
        ...(consent_col === undefined
          ? {}
          : typeof consent_col === 'number'
            ? { consent_index: consent_col }
            : { consent_col }),
      },
      {
        ...options,
        [streamedBody]: body,
        [answerHeaders]: (headers: Headers) => {
          jobId = headers.get(JOB_ID_HEADER) ?? '';
        },
      } as StreamedRequestOptions,
    );
    let ended: BulkJob | null = null;
    const result = this.#endedByJob(answer, jobId, options, (job) => {
      ended = job;
    });
    return { jobId, result, endedJob: async () => ended ?? this.get(jobId, options) };
  }

  /**
   * The answer's rows, then its end or, for a job that failed part-way, the job's own error. The
   * job fetched at the end goes to `onJob`.
   */
  #endedByJob(
    answer: ReadableStream<Uint8Array>,
    jobId: string,
    options: RequestOptions,
    onJob: (job: BulkJob) => void,
  ) {
    const reader = answer.getReader();
    const failedJob = async () => {
      const job = await this.get(jobId, options).catch(() => null);
      if (job) onJob(job);
      return job?.status === 'failed' ? new BulkJobFailedError(job) : null;
    };
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          // The service breaks off the answer of a job that failed part-way: say why.
          throw (await failedJob()) ?? error;
        }
        if (!next.done) return controller.enqueue(next.value);
        const failed = await failedJob();
        if (failed) throw failed;
        controller.close();
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }

  /**
   * All of it in one call: creates the job, uploads `source`, submits it and waits for it to end.
   * Resolves with the completed job, whose `file_reference` `files.download()` takes.
   */
  async run(
    source: UploadSource,
    params: Omit<BulkJobCreateParams, 'csv_content'>,
    { onUploadProgress, onProgress, holdSeconds, pollInterval, maxPollInterval, ...options }: RunOptions = {},
  ): Promise<BulkJob> {
    const created = await this.create(params, options);
    await this.upload(created, source, {
      onProgress: onUploadProgress,
      signal: options.signal,
      timeout: options.timeout,
    });
    try {
      await this.submit(created.job_id, options);
    } catch (error) {
      // A submit whose answer was lost is retried, and the retry finds the job submitted already.
      if (!(error instanceof ConflictError)) throw error;
      const job = await this.get(created.job_id, options);
      if (job.status === 'awaiting_upload') throw error;
    }
    return this.wait(created.job_id, { ...options, onProgress, holdSeconds, pollInterval, maxPollInterval });
  }
}
