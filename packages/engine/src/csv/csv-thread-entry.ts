// The worker thread side of `scrubCsvInThread` and `countCsvInThread`: takes jobs one after the
// other (a thread left warm by one job runs the next); for each, maps the tables the caller
// posted, pulls the file from the caller chunk by chunk, and posts the output back. Runs from
// `dist/` when built, and under Node's type stripping from source (tests).
import { Writable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import {
  type CsvThreadData,
  type FromThread,
  movable,
  release,
  type ToThread,
  threadErrorOf,
} from './csv-thread-protocol.ts';
import { countCsv, countCsvRows, scrubCsv } from './scrub-csv.ts';
import { scrubCsvInParallel } from './scrub-csv-parallel.ts';
import { threadScrubOptions } from './thread-scrub-options.ts';

const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);

// Input is asked for AHEAD chunks ahead, each 'pull' answered with a chunk or the end: the next
// chunk is on its way while this one is scrubbed, so the thread seldom waits on the caller's event
// loop (busy with requests and the database), and at most AHEAD chunks wait in memory.
const AHEAD = 3;

/** One job's file, as the caller sends it. */
class Input {
  readonly #arrived: ToThread[] = [];
  #asked = 0;
  #ended = false;
  #waiting: ((message: ToThread) => void) | null = null;

  receive(message: ToThread): void {
    this.#asked--;
    if (message.type === 'end') this.#ended = true;
    const resolve = this.#waiting;
    this.#waiting = null;
    if (resolve) resolve(message);
    else this.#arrived.push(message);
  }

  // Every reader of the input (the head that sets the dialect, the UTF-16 decoder, the rows)
  // copies a chunk before asking for the next, so a chunk is released as soon as the next is asked for.
  async *chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      while (!this.#ended && this.#asked + this.#arrived.length < AHEAD) {
        this.#asked++;
        post({ type: 'pull' });
      }
      const message =
        this.#arrived.shift() ??
        (await new Promise<ToThread>((resolve) => {
          this.#waiting = resolve;
        }));
      if (message.type === 'end') return;
      if (message.type !== 'chunk') throw new Error(`A CSV thread was sent "${message.type}" during a job`);
      yield message.chunk;
      release(message.chunk);
    }
  }
}

/** Where a job's result goes: to the caller (a new one for each job, which the scrub ends). */
function output(): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      // The scrub writes each batch into a buffer of its own: moved, not copied.
      port.postMessage({ type: 'out', chunk } satisfies FromThread, movable(chunk, false));
      done();
    },
  });
}

function optionsOf(data: CsvThreadData) {
  return {
    ...threadScrubOptions(data),
    onProgress: ({ rows, bytes }: { rows: number; bytes: number }) => post({ type: 'progress', rows, bytes }),
  };
}

/** A job's outcome, as the one message that settles it. */
async function run(data: CsvThreadData, input: Input): Promise<FromThread> {
  try {
    const options = optionsOf(data);
    const result =
      data.mode === 'rows'
        ? await countCsvRows(input.chunks(), options)
        : data.mode === 'count'
          ? await countCsv(input.chunks(), options)
          : (data.threads ?? 1) > 1
            ? await scrubCsvInParallel(input.chunks(), output(), { ...options, threads: data.threads })
            : await scrubCsv(input.chunks(), output(), options);
    return { type: 'done', result };
  } catch (error) {
    return { type: 'error', error: threadErrorOf(error) };
  }
}

// The caller sends a job only to a thread that has settled the one before: one job at a time.
let input: Input | null = null;
port.on('message', (message: ToThread) => {
  if (message.type !== 'job') {
    input?.receive(message);
    return;
  }
  const job = new Input();
  input = job;
  void run(message.data, job).then(post);
});
