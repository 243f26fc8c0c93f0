/**
 * The quote's whole-file count, off the page's main thread: a 200 MB file takes seconds to stream,
 * and the wizard stays responsive meanwhile. Receives the File, answers its record count (or the
 * error's message); `countRecordsInWorker` (count-records-in-worker.ts) starts and ends it.
 */
import { countRecords } from './count-records';

/** The worker's own scope (the project's types are the page's: DOM, not WebWorker). */
const scope = self as unknown as { postMessage(message: unknown): void };

self.onmessage = async (event: MessageEvent<Blob>) => {
  try {
    scope.postMessage({ records: await countRecords(event.data) });
  } catch (error) {
    scope.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
