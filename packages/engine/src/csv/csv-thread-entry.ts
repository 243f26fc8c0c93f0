// The worker thread side of `scrubCsvInThread` and `countCsvInThread`: maps the tables the caller
// posted, pulls the file from the caller chunk by chunk, and posts the output back. Runs from
// `dist/` when built, and under Node's type stripping from source (tests).
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { DncSet } from '../dnc/set.ts';
import { ExchangeTable } from '../exchange/exchange-table.ts';
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

const port = parentPort!;
const data = workerData as CsvThreadData;
const post = (message: FromThread) => port.postMessage(message);

// Input is asked for AHEAD chunks ahead, each 'pull' answered with a chunk or the end: the next
// chunk is on its way while this one is scrubbed, so the thread seldom waits on the caller's event
// loop (busy with requests and the database), and at most AHEAD chunks wait in memory.
const AHEAD = 3;
const arrived: ToThread[] = [];
let asked = 0;
let ended = false;
let waiting: ((message: ToThread) => void) | null = null;
port.on('message', (message: ToThread) => {
  asked--;
  if (message.type === 'end') ended = true;
  const resolve = waiting;
  waiting = null;
  if (resolve) resolve(message);
  else arrived.push(message);
});

// Every reader of the input (the head that sets the dialect, the UTF-16 decoder, the rows) copies
// a chunk before asking for the next, so a chunk is released as soon as the next is asked for.
async function* input(): AsyncGenerator<Uint8Array> {
  for (;;) {
    while (!ended && asked + arrived.length < AHEAD) {
      asked++;
      post({ type: 'pull' });
    }
    const message =
      arrived.shift() ??
      (await new Promise<ToThread>((resolve) => {
        waiting = resolve;
      }));
    if (message.type === 'end') return;
    yield message.chunk;
    release(message.chunk);
  }
}

const output = new Writable({
  write(chunk: Buffer, _encoding, done) {
    // The scrub writes each batch into a buffer of its own: moved, not copied.
    port.postMessage({ type: 'out', chunk } satisfies FromThread, movable(chunk, false));
    done();
  },
});

const options = {
  phoneColumn: data.phoneColumn,
  ...(data.header === undefined ? {} : { header: data.header }),
  ...(data.separator === undefined ? {} : { separator: data.separator }),
  ...(data.maxRowBytes === undefined ? {} : { maxRowBytes: data.maxRowBytes }),
  ...(data.exchange ? { exchange: ExchangeTable.fromShared(data.exchange) } : {}),
  ...(data.dnc ? { dnc: DncSet.fromShared(data.dnc) } : {}),
  ...(data.dncMask === undefined ? {} : { dncMask: data.dncMask }),
  ...(data.columns === undefined ? {} : { columns: data.columns }),
  ...(data.evaluatedAt === undefined ? {} : { evaluatedAt: data.evaluatedAt }),
  onProgress: ({ rows, bytes }: { rows: number; bytes: number }) => post({ type: 'progress', rows, bytes }),
};

/** The job's outcome, as the one message that settles it. */
async function run(): Promise<FromThread> {
  try {
    const result =
      data.mode === 'rows'
        ? await countCsvRows(input(), options)
        : data.mode === 'count'
          ? await countCsv(input(), options)
          : (data.threads ?? 1) > 1
            ? await scrubCsvInParallel(input(), output, { ...options, threads: data.threads })
            : await scrubCsv(input(), output, options);
    return { type: 'done', result };
  } catch (error) {
    return { type: 'error', error: threadErrorOf(error) };
  }
}

void run().then(post);
