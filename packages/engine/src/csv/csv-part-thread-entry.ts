// The thread side of `CsvPartThreads`: scrubs the parts of one file it is handed, one at a time, and
// posts each back with its output and its numbers. Runs from `dist/` when built, and under Node's
// type stripping from source (tests).
import { parentPort, workerData } from 'node:worker_threads';
import {
  type CsvPartThreadData,
  movable,
  type PartFromThread,
  type PartToThread,
  release,
  threadErrorOf,
} from './csv-thread-protocol.ts';
import { scrubCsvPart } from './scrub-csv.ts';
import { threadScrubOptions } from './thread-scrub-options.ts';

const port = parentPort!;
const data = workerData as CsvPartThreadData;

const options = threadScrubOptions(data);

// Parts are handed over once the engine is loaded: until then the caller scrubs them itself.
port.postMessage({ type: 'ready' } satisfies PartFromThread);

port.on('message', ({ index, bytes, last, shape }: PartToThread) => {
  let message: PartFromThread;
  let moved: ArrayBuffer[] = [];
  try {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const part = scrubCsvPart(buf, last, data.dialect, shape, options);
    message = { type: 'done', index, part };
    // Each batch of the output is a buffer of its own, and so are the numbers: moved, not copied.
    moved = [...part.output.flatMap((chunk) => movable(chunk, false)), part.numbers.buffer as ArrayBuffer];
  } catch (error) {
    message = { type: 'error', index, error: threadErrorOf(error) };
  }
  // The part's bytes came from the caller and nothing else holds them: freed now, not at the next collection.
  release(bytes);
  port.postMessage(message, moved);
});
