// The thread side of `CsvPartThreads`: takes one file's options, scrubs the parts of that file it is
// handed, one at a time, and posts each back with its output and its numbers; then waits, warm, for
// the next file's. Runs from `dist/` when built, and under Node's type stripping from source (tests).
import { parentPort } from 'node:worker_threads';
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

/** The file being scrubbed: its data and its options (the tables mapped); null between files. */
let job: { data: CsvPartThreadData; options: ReturnType<typeof threadScrubOptions> } | null = null;

// Parts are handed over once the engine is loaded: until then the caller scrubs them itself.
port.postMessage({ type: 'ready' } satisfies PartFromThread);

port.on('message', (message: PartToThread) => {
  if (message.type === 'job') {
    // Tables that are not tables throw here, and stop the thread: the caller fails its parts.
    job = { data: message.data, options: threadScrubOptions(message.data) };
    return;
  }
  if (message.type === 'idle') {
    job = null;
    return;
  }
  const { index, bytes, last, shape } = message;
  let answer: PartFromThread;
  let moved: ArrayBuffer[] = [];
  try {
    if (job === null) throw new Error('A CSV part thread was sent a part before its file');
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const part = scrubCsvPart(buf, last, job.data.dialect, shape, job.options);
    answer = { type: 'done', index, part };
    // Each batch of the output is a buffer of its own, and so are the numbers: moved, not copied.
    moved = [...part.output.flatMap((chunk) => movable(chunk, false)), part.numbers.buffer as ArrayBuffer];
  } catch (error) {
    answer = { type: 'error', index, error: threadErrorOf(error) };
  }
  // The part's bytes came from the caller and nothing else holds them: freed now, not at the next collection.
  release(bytes);
  port.postMessage(answer, moved);
});
