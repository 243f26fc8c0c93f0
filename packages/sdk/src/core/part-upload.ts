import type { ResumableUpload, UploadPartUrl } from '@scrub/contract';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  connectionFailure,
  parseErrorBody,
  ScrubError,
} from '../errors.js';
import { isRetryableStatus, retryDelayMs } from './retry.js';
import type { UploadOptions } from './upload-options.js';

/** A file read by byte ranges, which a resumed upload needs: a path (Node), a Blob, or bytes. */
export type PartSource = string | Blob | Uint8Array;

/** A source's size, and its bytes `[start, end)`. */
export interface RangeReader {
  size: number;
  read(start: number, end: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

type PathRanges = (path: string) => Promise<RangeReader>;

/** Set by the Node entry; left unset in a browser, which has no paths to read. */
let pathRanges: PathRanges | undefined;

export function readPathRangesWith(opener: PathRanges): void {
  pathRanges = opener;
}

export async function openRanges(source: PartSource): Promise<RangeReader> {
  if (typeof source === 'string') {
    if (!pathRanges) {
      throw new ScrubError(
        'A file path can be uploaded from Node only: in a browser, pass the File from the file input.',
      );
    }
    return pathRanges(source);
  }
  if (source instanceof Blob) {
    return {
      size: source.size,
      read: async (start, end) => new Uint8Array(await source.slice(start, end).arrayBuffer()),
      close: async () => {},
    };
  }
  return {
    size: source.byteLength,
    read: async (start, end) => source.subarray(start, end),
    close: async () => {},
  };
}

/** Whether a part that failed so may pass when sent again: a dropped connection, a server fault, an expired URL. */
export function isRetryablePartError(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  // 403: the part URLs expired while the upload waited; the next view of the upload has fresh ones.
  return error instanceof APIError && (isRetryableStatus(error.status) || error.status === 403);
}

/**
 * PUTs one part's bytes to its URL: no credentials (the URL is signed) and no Content-Type (S3's
 * part URLs take any). A part is at most a few MiB, so it is sent from memory, whole.
 */
export async function putPart(
  fetchImpl: typeof fetch | undefined,
  part: UploadPartUrl,
  bytes: Uint8Array,
  { signal, timeout }: Pick<UploadOptions, 'signal'> & { timeout: number },
): Promise<void> {
  if (signal?.aborted) throw new APIUserAbortError();
  const timer = AbortSignal.timeout(timeout);
  let response: Response;
  let text: string;
  try {
    response = await (fetchImpl ?? fetch)(part.url, {
      method: 'PUT',
      body: bytes as Uint8Array<ArrayBuffer>,
      signal: signal ? AbortSignal.any([signal, timer]) : timer,
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw new APIUserAbortError();
    if (timer.aborted) throw new APIConnectionTimeoutError(timeout);
    throw new APIConnectionError(connectionFailure(part.url, error), { cause: error });
  }
  if (!response.ok) throw APIError.generate(response.status, parseErrorBody(text), response.headers);
}

/** What sending the parts needs from the client: its calls of the upload routes, its fetch and its sleep. */
export interface PartUploadCalls {
  get(uploadId: string): Promise<ResumableUpload>;
  complete(uploadId: string): Promise<ResumableUpload>;
  fetchImpl: typeof fetch | undefined;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface SendPartsOptions extends UploadOptions {
  timeout: number;
  /** Failures in a row (network, 5xx) before giving up. */
  maxPartRetries: number;
  /** Hears the upload as the service holds it after a failed part, before the rest is sent. */
  onResume?: ((upload: ResumableUpload, error: unknown) => void) | undefined;
}

/**
 * Sends the parts the service does not hold yet, then completes the upload. A part that fails is
 * not sent again blindly: the service is asked what it holds, and only the rest goes, so a
 * dropped connection costs at most the parts in flight. Progress counts what the service holds.
 */
export async function sendParts(
  calls: PartUploadCalls,
  reader: RangeReader,
  start: ResumableUpload,
  options: SendPartsOptions,
): Promise<ResumableUpload> {
  const { onProgress, signal, maxPartRetries } = options;
  let upload = start;
  let failures = 0;
  let failed: unknown;
  onProgress?.(upload.bytes_received, upload.size);
  while (!upload.completed) {
    if (upload.parts_to_send.length === 0) {
      upload = await calls.complete(upload.upload_id);
      break;
    }
    let held = upload.bytes_received;
    try {
      for (const part of upload.parts_to_send) {
        const bytes = await reader.read(part.start, part.end);
        await putPart(calls.fetchImpl, part, bytes, options);
        held += part.end - part.start;
        failures = 0;
        onProgress?.(held, upload.size);
      }
    } catch (error) {
      if (!isRetryablePartError(error) || failures >= maxPartRetries) throw error;
      await calls.sleep(retryDelayMs(failures), signal);
      failures++;
      failed = error;
    }
    upload = await calls.get(upload.upload_id);
    if (failed !== undefined) {
      options.onResume?.(upload, failed);
      onProgress?.(upload.bytes_received, upload.size);
      failed = undefined;
    }
  }
  onProgress?.(upload.size, upload.size);
  return upload;
}
