import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  connectionFailure,
  parseErrorBody,
} from '../errors.js';
import type { UploadOptions } from './upload-options.js';

/** The part of a browser's XMLHttpRequest an upload uses (the SDK's types have no DOM library). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  getAllResponseHeaders(): string;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { onprogress: ((event: { loaded: number }) => void) | null };
  onprogress: (() => void) | null;
  onload: (() => void) | null;
  onerror: (() => void) | null;
}

/** The browser's XMLHttpRequest; undefined in Node, Deno and workers without one. */
export function xhrConstructor(): (new () => Xhr) | undefined {
  return (globalThis as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;
}

function responseHeaders(xhr: Xhr): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * PUTs a file with XMLHttpRequest, for browsers: fetch reports no upload progress, and streams a
 * request body only over HTTP/2 in Chromium (not at all in Firefox or Safari). The browser sends
 * the Blob from disk and sets its length. Same stall timeout and errors as the fetch upload.
 */
export function putWithXhr(
  Request: new () => Xhr,
  url: string,
  body: Blob,
  { onProgress, signal, timeout }: UploadOptions & { timeout: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new Request();
    let stallTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (error?: Error) => {
      clearTimeout(stallTimer);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const stillMoving = () => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        xhr.onerror = null;
        xhr.abort();
        finish(new APIConnectionTimeoutError(timeout));
      }, timeout);
    };
    const onAbort = () => {
      xhr.onerror = null;
      xhr.abort();
      finish(new APIUserAbortError());
    };

    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', 'text/csv');
    xhr.upload.onprogress = (event) => {
      stillMoving();
      onProgress?.(event.loaded, body.size);
    };
    // The answer arriving counts as movement too, after the last byte was sent.
    xhr.onprogress = stillMoving;
    xhr.onerror = () => finish(new APIConnectionError(connectionFailure(url, new Error('network error'))));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return finish();
      finish(APIError.generate(xhr.status, parseErrorBody(xhr.responseText), responseHeaders(xhr)));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    onProgress?.(0, body.size);
    stillMoving();
    xhr.send(body);
  });
}
