import { APIError, APIUserAbortError } from '@scrub/sdk';

/**
 * PUTs the file to the job's signed upload URL with XMLHttpRequest, for its upload progress events.
 * A workaround until the SDK's browser entry uploads with progress: `scrub.bulk.upload()` sends a
 * streamed fetch body, which Chromium refuses over HTTP/1.1. The File is handed to the browser as
 * is, so a 1 GB file is read from disk as it is sent, never held in memory.
 */
export function uploadFile(
  url: string,
  file: File,
  { onProgress, signal }: { onProgress(sent: number, total: number): void; signal: AbortSignal },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', sameOriginInDevelopment(url));
    request.setRequestHeader('content-type', 'text/csv');
    request.upload.onprogress = (event) =>
      onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      let body: unknown = request.responseText;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (S3 answers XML): the error keeps the text.
      }
      reject(APIError.generate(request.status, body, new Headers()));
    };
    request.onerror = () => reject(new Error('Failed to upload file. Please try again.'));
    request.onabort = () => reject(new APIUserAbortError());
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

/**
 * Under `vite` dev the service signs URLs for its own origin (http://localhost:8787), which sends no
 * CORS headers on uploads: go through the dev server's proxy instead. Built, the app is served by the
 * service and the URL is used as given (this service's, or an S3 bucket's).
 */
function sameOriginInDevelopment(url: string): string {
  if (!import.meta.env.DEV) return url;
  const target = new URL(url);
  if (target.hostname !== 'localhost' && target.hostname !== '127.0.0.1') return url;
  return `${window.location.origin}${target.pathname}${target.search}`;
}
