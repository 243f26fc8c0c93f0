import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  connectionFailure,
  parseErrorBody,
} from '../errors.js';

/**
 * A CSV to upload: a file path (Node), its bytes, or a stream of them (a web `ReadableStream`, a
 * Node `Readable` or any async iterable; string chunks are sent as UTF-8).
 */
export type UploadSource =
  | string
  | Uint8Array
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

export interface UploadOptions {
  /**
   * Called as bytes are handed to the connection. `totalBytes` is known for a path and for bytes,
   * and undefined for a stream.
   */
  onProgress?(sentBytes: number, totalBytes: number | undefined): void;
  signal?: AbortSignal;
  /**
   * Milliseconds the upload may stall (no byte taken, or no answer once all are sent) before it is
   * given up. Default: the client's `timeout`. A large file takes as long as it needs.
   */
  timeout?: number;
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

/** The chunks of a source and, when it can be known without reading it, its length. */
async function openSource(
  source: UploadSource,
): Promise<{ chunks: AsyncIterable<Uint8Array | string>; length: number | undefined }> {
  if (typeof source === 'string') {
    // Imported here so that browsers, which never pass a path, never load node:fs.
    const { createReadStream } = await import('node:fs');
    const { stat } = await import('node:fs/promises');
    const file = await stat(source);
    // A pipe or a device (/dev/stdin) has no size until it has been read.
    return { chunks: createReadStream(source), length: file.isFile() ? file.size : undefined };
  }
  if (source instanceof Uint8Array) return { chunks: slices(source), length: source.byteLength };
  if ('getReader' in source) return { chunks: readerChunks(source), length: undefined };
  return { chunks: source, length: undefined };
}

/**
 * PUTs a CSV to an upload URL: this service's own signed URL or an S3 presigned one. The signature
 * in the URL is the only credential, so no API key or token goes with it (S3 would refuse them).
 * The body is streamed, never held whole; its length is declared when known, as S3 requires.
 * Not retried: a stream cannot be sent twice, and an upload URL takes one file.
 */
export async function putUpload(
  fetchImpl: typeof fetch,
  url: string,
  source: UploadSource,
  { onProgress, signal, timeout }: UploadOptions & { timeout: number },
): Promise<void> {
  if (signal?.aborted) throw new APIUserAbortError();
  const { chunks, length } = await openSource(source);
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();

  // A stall timer rather than a deadline: restarted with every chunk taken.
  const stalled = new AbortController();
  let stallTimer = setTimeout(() => stalled.abort(), timeout);
  const stillMoving = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => stalled.abort(), timeout);
  };

  let sent = 0;
  onProgress?.(0, length);
  const body = new ReadableStream<Uint8Array>({
    // Pulled as the connection takes bytes, so a slow network slows the reading of the source.
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) return controller.close();
      const bytes = typeof next.value === 'string' ? encoder.encode(next.value) : next.value;
      sent += bytes.byteLength;
      stillMoving();
      onProgress?.(sent, length);
      controller.enqueue(bytes);
    },
    async cancel() {
      await iterator.return?.();
    },
  });

  const headers: Record<string, string> = { 'content-type': 'text/csv' };
  if (length !== undefined) headers['content-length'] = String(length);
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, {
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
    await iterator.return?.();
  }
  if (!response.ok) throw APIError.generate(response.status, parseErrorBody(text), response.headers);
}
