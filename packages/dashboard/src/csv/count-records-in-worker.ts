import { countRecords } from './count-records';

type Answer = { records: number } | { error: string };

/**
 * `countRecords` in a Web Worker (count-records.worker.ts), so the page keeps answering while a
 * large file is streamed. A File is handed over by reference, not copied. Aborting ends the worker.
 * Where workers are missing, counts on the main thread as before.
 */
export function countRecordsInWorker(file: Blob, signal?: AbortSignal): Promise<number> {
  if (typeof Worker === 'undefined') return countRecords(file, signal);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./count-records.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => {
      worker.terminate();
      reject(new DOMException('Counting was cancelled', 'AbortError'));
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener('abort', stop, { once: true });
    const finish = () => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
    };
    worker.onmessage = ({ data }: MessageEvent<Answer>) => {
      finish();
      if ('records' in data) resolve(data.records);
      else reject(new Error(data.error));
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(event.message || 'The record count failed'));
    };
    worker.postMessage(file);
  });
}
