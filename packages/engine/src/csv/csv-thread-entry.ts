// The worker thread side of `scrubCsvInThread` and `countCsvInThread`: maps the tables the caller
// posted, pulls the file from the caller chunk by chunk, and posts the output back. Runs from
// `dist/` when built, and under Node's type stripping from source (tests).
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { DncSet } from '../dnc/set.ts';
import { ExchangeTable } from '../exchange/exchange-table.ts';
import { CsvError } from './csv-error.ts';
import type { CsvThreadData, FromThread, ToThread } from './csv-thread-protocol.ts';
import { countCsv, scrubCsv } from './scrub-csv.ts';

const port = parentPort!;
const data = workerData as CsvThreadData;
const post = (message: FromThread) => port.postMessage(message);

// One request for input at a time: the caller answers with a chunk or the end.
let waiting: ((message: ToThread) => void) | null = null;
port.on('message', (message: ToThread) => {
  const resolve = waiting;
  waiting = null;
  resolve?.(message);
});

async function* input(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const message = await new Promise<ToThread>((resolve) => {
      waiting = resolve;
      post({ type: 'pull' });
    });
    if (message.type === 'end') return;
    yield message.chunk;
  }
}

const output = new Writable({
  write(chunk: Buffer, _encoding, done) {
    post({ type: 'out', chunk });
    done();
  },
});

const options = {
  phoneColumn: data.phoneColumn,
  ...(data.header === undefined ? {} : { header: data.header }),
  ...(data.separator === undefined ? {} : { separator: data.separator }),
  ...(data.maxRowBytes === undefined ? {} : { maxRowBytes: data.maxRowBytes }),
  ...(data.exchange ? { exchange: ExchangeTable.fromShared(data.exchange) } : {}),
  onProgress: ({ rows, bytes }: { rows: number; bytes: number }) => post({ type: 'progress', rows, bytes }),
};

/** The job's outcome, as the one message that settles it. */
async function run(): Promise<FromThread> {
  try {
    const result =
      data.mode === 'count'
        ? await countCsv(input(), options)
        : await scrubCsv(input(), output, {
            ...options,
            ...(data.dnc ? { dnc: DncSet.fromShared(data.dnc) } : {}),
            ...(data.dncMask === undefined ? {} : { dncMask: data.dncMask }),
          });
    return { type: 'done', result };
  } catch (error) {
    return {
      type: 'error',
      error:
        error instanceof CsvError
          ? { message: error.message, code: error.code, line: error.line }
          : { message: (error as Error).message, stack: (error as Error).stack },
    };
  }
}

void run().then(post);
