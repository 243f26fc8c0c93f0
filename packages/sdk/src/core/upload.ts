import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  connectionFailure,
  parseErrorBody,
  ScrubError,
} from '../errors.js';
import type { UploadOptions } from './upload-options.js';
import { putWithXhr, xhrConstructor } from './upload-xhr.js';

/**
 * A CSV to upload: a file path (Node), a `File` or `Blob` (a browser's file input), its bytes, or a
 * stream of them (a web `ReadableStream`, a Node `Readable` or any async iterable; string chunks
 * are sent as UTF-8).
 */
export type UploadSource =
  | string
  | Blob
  | Uint8Array
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

/** A source's chunks and, when it can be known without reading them, its length. */
export interface SourceBytes {
  chunks: AsyncIterable<Uint8Array | string>;
  length: number | undefined;
}

type PathOpener = (path: string) => Promise<SourceBytes>;

/** Set by the Node entry; left unset in a browser, which has no paths to read. */
let pathOpener: PathOpener | undefined;

export function readPathsWith(opener: PathOpener): void {
  pathOpener = opener;
}

/** Bytes handed over in slices this big, so progress moves for a file given whole. */
const SLICE_BYTES = 64 * 1024;

async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.byteLength; start += SLICE_BYTES) {
    yield bytes.subarray(start, start + SLICE_BYTES);
  }
}

async function* readerChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Stopped early (an abort, a refused upload): the source is told, so a file it reads is closed.
    if (!done) await reader.cancel();
  }
}

export async function openSource(source: UploadSource): Promise<SourceBytes> {
  if (typeof source === 'string') {
    if (!pathOpener) {
      throw new ScrubError(
        'A file path can be uploaded from Node only: in a browser, pass the File from the file input.',
      );
    }
    return pathOpener(source);
  }
  if (source instanceof Blob) return { chunks: readerChunks(source.stream()), length: source.size };
  if (source instanceof Uint8Array) return { chunks: slices(source), length: source.byteLength };
  if ('getReader' in source) return { chunks: readerChunks(source), length: undefined };
  return { chunks: source, length: undefined };
}

/** A source's chunks as a streamed request body. */
export interface UploadBody {
  body: ReadableStream<Uint8Array>;
  /** Stops reading the source (a refusal can come before the whole body was taken). */
  close: () => Promise<void>;
}

/** Streams `chunks` as a request body; `onSent` hears the bytes sent so far after each chunk. */
export function uploadBody(
  chunks: AsyncIterable<Uint8Array | string>,
  onSent: (sent: number) => void,
): UploadBody {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    // Pulled as the connection takes bytes, so a slow network slows the reading of the source.
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) return controller.close();
      const bytes = typeof next.value === 'string' ? encoder.encode(next.value) : next.value;
      sent += bytes.byteLength;
      onSent(sent);
      controller.enqueue(bytes);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return {
    body,
    close: async () => {
      await iterator.return?.();
    },
  };
}

/** A source as a Blob, which XMLHttpRequest sends with its length and progress. */
async function asBlob(source: UploadSource): Promise<Blob> {
  if (source instanceof Blob) return source;
  const { chunks } = await openSource(source);
  const parts: (Uint8Array<ArrayBuffer> | string)[] = [];
  // Copied: a Blob refuses a view of a SharedArrayBuffer, which a Uint8Array chunk may be.
  for await (const chunk of chunks) parts.push(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
  return new Blob(parts, { type: 'text/csv' });
}

/**
 * PUTs a CSV to an upload URL: this service's own signed URL or an S3 presigned one. The signature
 * in the URL is the only credential, so no API key or token goes with it (S3 would refuse them).
 * The body is streamed, never held whole; its length is declared when known, as S3 requires.
 * Not retried: a stream cannot be sent twice, and an upload URL takes one file. In a browser
 * (without a `fetch` given to the client) it goes by XMLHttpRequest, for its upload progress.
 */
export async function putUpload(
  fetchImpl: typeof fetch | undefined,
  url: string,
  source: UploadSource,
  options: UploadOptions & { timeout: number },
): Promise<void> {
  const { onProgress, signal, timeout } = options;
  if (signal?.aborted) throw new APIUserAbortError();
  const Xhr = xhrConstructor();
  // A browser's own transport, unless the client was given a fetch of its own to use.
  if (Xhr && !fetchImpl) return putWithXhr(Xhr, url, await asBlob(source), options);
  const { chunks, length } = await openSource(source);

  // A stall timer rather than a deadline: restarted with every chunk taken.
  const stalled = new AbortController();
  let stallTimer = setTimeout(() => stalled.abort(), timeout);
  const stillMoving = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => stalled.abort(), timeout);
  };

  onProgress?.(0, length);
  const { body, close } = uploadBody(chunks, (sent) => {
    stillMoving();
    onProgress?.(sent, length);
  });

  const headers: Record<string, string> = { 'content-type': 'text/csv' };
  if (length !== undefined) headers['content-length'] = String(length);
  let response: Response;
  let text: string;
  try {
    response = await (fetchImpl ?? fetch)(url, {
      method: 'PUT',
      headers,
      body,
      // Required by fetch for a streamed request body.
      duplex: 'half',
      signal: signal ? AbortSignal.any([signal, stalled.signal]) : stalled.signal,
      // Node's fetch otherwise keeps every byte sent in memory, to send it again after a redirect:
      // a 1 GB file took 1 GB (nodejs/undici#4058). An upload URL never redirects.
      redirect: 'error',
      window: null,
    } as RequestInit);
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw new APIUserAbortError();
    if (stalled.signal.aborted) throw new APIConnectionTimeoutError(timeout);
    throw new APIConnectionError(connectionFailure(url, error), { cause: error });
  } finally {
    clearTimeout(stallTimer);
    // A refusal can come before the whole body was taken: the source is closed either way.
    await close();
  }
  if (!response.ok) throw APIError.generate(response.status, parseErrorBody(text), response.headers);
}
