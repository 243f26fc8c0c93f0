import {
  type CreatedDncImport,
  type DncChange,
  type DncEntry,
  type DncImport,
  type DncNumberList,
  type DncSummary,
  MAX_INLINE_CSV_CHARS,
  routes,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { fetchFunction } from '../core/internal.js';
import { type NumberedPage, numberedPage } from '../core/numbered-page.js';
import { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';
import { putUpload, type UploadSource } from '../core/upload.js';
import type { UploadOptions } from '../core/upload-options.js';

/** One page of the suppression list; `for await` over it yields every number of every page after it. */
export type SuppressionPage = NumberedPage<DncNumberList, DncEntry>;

/** `GET /dnc/numbers`: `page` 1 and `limit` 50 (at most 1,000) by default; `search` matches digits. */
export interface SuppressionListParams {
  page?: number;
  limit?: number;
  search?: string;
}

/** How a CSV meets the list (`merge` by default) and where its numbers are (column 0 by default). */
export type SuppressionImportParams = Omit<Partial<DncImport>, 'csv_content'>;

/** The CSV's text: a string, its bytes (UTF-8), or a `Blob`/`File` in browsers. */
export type SuppressionCsvSource = string | Uint8Array | Blob;

/**
 * The account's own suppression list (internal DNC): numbers it never wants called. Every check
 * (`verify`, bulk files) counts it from the next check on, as `internal` in `dnc_sources`.
 */
export class Suppression extends APIResource {
  /** How many numbers the list holds (and how many the operator imported for the account). */
  get(options?: RequestOptions): Promise<DncSummary> {
    return this.client.request(routes.getDncSummary, {}, options);
  }

  /**
   * Adds up to 10,000 numbers, written as people write them. Numbers that cannot be read are
   * answered in `rejected` (by index, with the reason) and the others are added all the same.
   */
  add(numbers: string[], options?: RequestOptions): Promise<DncChange> {
    return this.client.request(routes.addDncNumbers, { numbers }, options);
  }

  /** Removes up to 10,000 numbers; `changed` says how many were on the list. */
  remove(numbers: string[], options?: RequestOptions): Promise<DncChange> {
    return this.client.request(routes.removeDncNumbers, { numbers }, options);
  }

  /**
   * Imports a suppression CSV: `mode: 'merge'` (default) adds its numbers, `'replace'` makes them
   * the whole list. Bad rows are answered in `rejected` by line. Up to 1 MiB it is sent inline;
   * a larger one goes by upload (`importFile`).
   */
  async import(
    csv: SuppressionCsvSource,
    params: SuppressionImportParams = {},
    options?: RequestOptions,
  ): Promise<DncChange> {
    const csv_content =
      typeof csv === 'string'
        ? csv
        : csv instanceof Uint8Array
          ? new TextDecoder().decode(csv)
          : await csv.text();
    // Too large to send inline: the same import, by upload.
    if (csv_content.length > MAX_INLINE_CSV_CHARS)
      return this.importFile(new TextEncoder().encode(csv_content), params, options);
    return this.client.request(routes.importDncList, { ...params, csv_content }, options);
  }

  /**
   * Imports a suppression CSV of any size by upload, in the three steps below: a file path
   * (Node), a `File`/`Blob`, its bytes or a stream. What `import` does for a list over 1 MiB.
   */
  async importFile(
    source: UploadSource,
    params: SuppressionImportParams = {},
    options: RequestOptions & Pick<UploadOptions, 'onProgress'> = {},
  ): Promise<DncChange> {
    const { onProgress, ...requestOptions } = options;
    const created = await this.createImport(params, requestOptions);
    await this.uploadImport(created, source, {
      ...(onProgress ? { onProgress } : {}),
      ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
    });
    return this.submitImport(created.import_id, requestOptions);
  }

  /** Starts an import by upload: how to read the file; answers the URL to PUT it to (`uploadImport`). */
  createImport(params: SuppressionImportParams = {}, options?: RequestOptions): Promise<CreatedDncImport> {
    return this.client.request(routes.createDncImport, params, options);
  }

  /** PUTs the CSV to the import's upload URL, streamed, with no credentials (the URL is signed). Not retried. */
  uploadImport(created: CreatedDncImport, source: UploadSource, options: UploadOptions = {}): Promise<void> {
    return putUpload(this.client[fetchFunction](), created.upload_url, source, {
      ...options,
      timeout: options.timeout ?? this.client.timeout,
    });
  }

  /** Imports the uploaded file (merge or replace, as `createImport` said) and answers what changed. */
  submitImport(importId: string, options?: RequestOptions): Promise<DncChange> {
    return this.client.request(routes.submitDncImport, { import_id: importId }, options);
  }

  /**
   * The list in number order: `await` it for one page, or iterate it for every number
   * (`for await (const entry of scrub.suppression.list({ search: '201' }))`).
   */
  list(params: SuppressionListParams = {}, options?: RequestOptions): PagePromise<SuppressionPage, DncEntry> {
    const fetchPage = async (page: number): Promise<SuppressionPage> =>
      numberedPage(
        await this.client.request(routes.listDncNumbers, { ...params, page }, options),
        (list) => list.numbers,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }

  /** The whole list as CSV (`phone_number,added_at`), a web `ReadableStream` read as you read it. */
  export(options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    return this.client.request(routes.exportDncList, {}, options);
  }
}

/** @deprecated Use `Suppression` (`scrub.suppression`); the wire path stays `/dnc`. */
export const Dnc = Suppression;
/** @deprecated Use `Suppression`. */
export type Dnc = Suppression;
/** @deprecated Use `SuppressionPage`. */
export type DncPage = SuppressionPage;
/** @deprecated Use `SuppressionListParams`. */
export type DncListParams = SuppressionListParams;
/** @deprecated Use `SuppressionImportParams`. */
export type DncImportParams = SuppressionImportParams;
/** @deprecated Use `SuppressionCsvSource`. */
export type DncCsvSource = SuppressionCsvSource;
