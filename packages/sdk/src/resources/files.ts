import {
  type CallableNowFilter,
  type CreatedExistingFile,
  type CreateExistingFile,
  type DncFilter,
  type EmailedFile,
  type FileList,
  type FileListQuery,
  type FileProof,
  type FileView,
  type LineType,
  type ResultRow,
  type ResultRowsPage,
  type ResultRowsQuery,
  routes,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { fetchFunction } from '../core/internal.js';
import { type NumberedPage, numberedPage } from '../core/numbered-page.js';
import { itemsFrom, type Page, PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import { putUpload, type UploadSource } from '../core/upload.js';
import type { UploadOptions } from '../core/upload-options.js';
import { ConflictError } from '../errors.js';

/** `POST /files/existing` without the file: `phone_col` and `line_type_col` required, `dnc_col` optional. */
export type ExistingFileParams = Omit<CreateExistingFile, 'csv_content'>;

export interface UploadExistingOptions extends RequestOptions {
  /** The upload's progress, as `bulk.upload()` reports it. */
  onUploadProgress?: UploadOptions['onProgress'];
}

/** `GET /files/{file_reference}/rows`: `page`, `per_page` (at most 200), `line_type`, `dnc`, `search`; all optional. */
export type ResultRowsParams = Partial<ResultRowsQuery>;
/** One page of a result's rows; iterated with `for await`, every row of it and of the pages after it. */
export type ResultRowsPageOf = NumberedPage<ResultRowsPage, ResultRow>;

/** `GET /files`: every field is optional; `page` 1 and `limit` 20 (at most 100) by default. */
export type FileListParams = Partial<FileListQuery>;

/** Which rows of a result to download: the service matches its `Line Type`, `DNC` and `Callable Now` columns. */
export interface DownloadOptions extends RequestOptions {
  /** One line type, or several (rows of any of them); `'all'` or left out keeps every row. */
  lineType?: LineType | LineType[] | 'all';
  /** `'0'` clean rows, `'1'` do-not-call rows; `'all'` or left out keeps both. Numbers work too. */
  dnc?: '0' | '1' | 0 | 1 | 'all';
  /**
   * `'1'` rows inside the calling window when the file was scrubbed, `'0'` outside; `'all'` or left
   * out keeps both. Only for a result scrubbed with the `callable_now` column (`BadRequestError`
   * otherwise). Numbers work too.
   */
  callableNow?: '0' | '1' | 0 | 1 | 'all';
}

/** `files.email()`: who gets the mail, and which rows its result link keeps (as `download`). */
export interface EmailOptions extends DownloadOptions {
  /** One address or several (at most 5); the account's own address when left out. */
  to?: string | string[];
}

/** The API's `line_type`, `dnc` and `callable_now` filter fields from `DownloadOptions`. */
function resultFilter({ lineType, dnc, callableNow }: DownloadOptions) {
  return {
    line_type: Array.isArray(lineType) ? lineType.join(',') : lineType,
    dnc: dnc === undefined ? undefined : (String(dnc) as DncFilter),
    ...(callableNow === undefined ? {} : { callable_now: String(callableNow) as CallableNowFilter }),
  };
}

/**
 * One page of the caller's files, newest first: the API's fields, plus the way to the next pages.
 * Iterating it with `for await` yields its files and those of every page after it.
 */
export class FilePage implements FileList, Page<FileView> {
  readonly files: FileView[];
  readonly page: number;
  readonly total_pages: number;
  readonly total_files_count: number;
  readonly #fetchPage: (page: number) => Promise<FilePage>;

  constructor(list: FileList, fetchPage: (page: number) => Promise<FilePage>) {
    this.files = list.files;
    this.page = list.page;
    this.total_pages = list.total_pages;
    this.total_files_count = list.total_files_count;
    this.#fetchPage = fetchPage;
  }

  getPaginatedItems(): FileView[] {
    return this.files;
  }

  hasNextPage(): boolean {
    return this.page < this.total_pages;
  }

  getNextPage(): Promise<FilePage> {
    return this.#fetchPage(this.page + 1);
  }

  [Symbol.asyncIterator](): AsyncIterator<FileView> {
    return itemsFrom(this);
  }

  /** Only the JSON the API sent, for `JSON.stringify`. */
  toJSON(): FileList {
    const { files, page, total_pages, total_files_count } = this;
    return { files, page, total_pages, total_files_count };
  }
}

export class Files extends APIResource {
  /**
   * The caller's files, newest first: `await` it for one page, or iterate it for every file of
   * every page (`for await (const file of scrub.files.list({ search: 'leads' }))`). Files whose
   * job is still waiting for its upload are not listed.
   */
  list(params: FileListParams = {}, options?: RequestOptions): PagePromise<FilePage, FileView> {
    const fetchPage = async (page: number): Promise<FilePage> => {
      const list = await this.client.request(routes.listFiles, { ...params, page }, options);
      return new FilePage(list, fetchPage);
    };
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }

  /**
   * A result's rows, read a page at a time on the service (the file is never downloaded whole):
   * `await` it for one page (with `columns`, where the number and the mapped fields are), or iterate
   * it for every row that matches (`for await (const row of scrub.files.rows(ref, { dnc: '1' }))`).
   * `search` finds a part of the number or of a mapped field. Public, by reference.
   */
  rows(
    fileReference: string,
    params: ResultRowsParams = {},
    options?: RequestOptions,
  ): PagePromise<ResultRowsPageOf, ResultRow> {
    const fetchPage = async (page: number): Promise<ResultRowsPageOf> =>
      numberedPage(
        await this.client.request(
          routes.listResultRows,
          { ...params, file_reference: fileReference, page },
          options,
        ),
        (list) => list.rows,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }

  /** One file by its reference. Public: the reference is unguessable, and is the credential. */
  get(fileReference: string, options?: RequestOptions): Promise<FileView> {
    return this.client.request(routes.getFile, { file_reference: fileReference }, options);
  }

  /**
   * Deletes the file's upload and result now; the caller must own it. Answers the file view with
   * `removed_at` set; its downloads then answer 410 (`code` `file_expired`), its counts, credits and
   * proof of scrub stay. `ConflictError` (409) while its job is queued or running.
   */
  delete(fileReference: string, options?: RequestOptions): Promise<FileView> {
    return this.client.request(routes.deleteFile, { file_reference: fileReference }, options);
  }

  /**
   * Proof of scrub for a completed job: a signed statement (`jws`, keep it) of what was checked,
   * against which data, and until when it may be relied on, with the statement decoded for reading.
   * Public, by reference. `ConflictError` (409) for a job not completed, failed, scrubbed before
   * proofs were recorded, or uploaded as already scrubbed. Check it with `verifyProof`.
   */
  proof(fileReference: string, options?: RequestOptions): Promise<FileProof> {
    return this.client.request(routes.getFileProof, { file_reference: fileReference }, options);
  }

  /**
   * The result CSV as a web `ReadableStream` of bytes, filtered by the service, read as you read it
   * (never held whole). In Node, `Readable.fromWeb(stream)` or `pipeline(stream, file)` take it.
   * `ConflictError` (code `results_not_ready`) until the job has completed, and for a job that
   * failed with nothing kept; a streamed job cut off part-way gives the result of the records it
   * scrubbed and charged (its file view's `part_url`). `NotFoundError` (`file_not_found`) for an
   * unknown reference. An `APIError` with status 410 (`file_expired`) once the file's upload and
   * result were deleted (its `expires_at` passed, or it was deleted); the message says when and why.
   */
  download(
    fileReference: string,
    { lineType, dnc, callableNow, ...options }: DownloadOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return this.client.request(
      routes.downloadResult,
      {
        file_reference: fileReference,
        ...resultFilter({ lineType, dnc, callableNow }),
      },
      options,
    );
  }

  /**
   * Upload Existing Files, step one: a job for a file already scrubbed elsewhere, answered with the
   * URL to PUT it to (or, with `csv_content`, the stored file at once).
   */
  createExisting(params: CreateExistingFile, options?: RequestOptions): Promise<CreatedExistingFile> {
    return this.client.request(routes.createExistingFile, params, options);
  }

  /**
   * Upload Existing Files, last step: the service checks every row's line type (and DNC value) and
   * stores the file as a completed file, charging nothing. `BadRequestError` (code
   * `validation_failed`, `issues` naming each unknown value and its rows) stores nothing.
   */
  submitExisting(jobId: string, options?: RequestOptions): Promise<FileView> {
    return this.client.request(routes.submitExistingFile, { job_id: jobId }, options);
  }

  /**
   * All of Upload Existing Files in one call: creates the job, uploads `source` (a path in Node, a
   * `File` or `Blob` in browsers, bytes or a stream) and submits it. Resolves with the stored file,
   * listed by `list()` with `file_method: 'upload'` (shown as Direct DB).
   */
  async uploadExisting(
    source: UploadSource,
    params: ExistingFileParams,
    { onUploadProgress, ...options }: UploadExistingOptions = {},
  ): Promise<FileView> {
    const created = await this.createExisting(params, options);
    await putUpload(this.client[fetchFunction](), created.upload_url!, source, {
      onProgress: onUploadProgress,
      signal: options.signal,
      timeout: options.timeout ?? this.client.timeout,
    });
    try {
      return await this.submitExisting(created.job_id, options);
    } catch (error) {
      // A submit whose answer was lost is retried, and the retry finds the file stored already.
      if (!(error instanceof ConflictError)) throw error;
      const stored = await this.get(created.file_reference, options);
      if (stored.status !== 'completed') throw error;
      return stored;
    }
  }

  /**
   * E-mails a completed file's links (its result, filtered like `download`, and its detail page)
   * to `to` (at most 5 addresses), or to the account's own address. The caller must own the file.
   * `ConflictError` (`results_not_ready`) until the job has completed.
   */
  email(
    fileReference: string,
    { to, lineType, dnc, callableNow, ...options }: EmailOptions = {},
  ): Promise<EmailedFile> {
    return this.client.request(
      routes.emailFile,
      {
        file_reference: fileReference,
        ...(to === undefined ? {} : { to: typeof to === 'string' ? [to] : to }),
        ...resultFilter({ lineType, dnc, callableNow }),
      },
      options,
    );
  }

  /** The CSV as it was uploaded, as a stream of its bytes (whatever their encoding). */
  downloadUpload(fileReference: string, options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    return this.client.request(routes.downloadUpload, { file_reference: fileReference }, options);
  }
}
