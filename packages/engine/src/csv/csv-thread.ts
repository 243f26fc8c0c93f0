import { ReadStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { DncSet } from '../dnc/set.ts';
import type { ExchangeTable } from '../exchange/exchange-table.ts';
import type { CsvCounts, CsvRowCount, ScrubCsvResult } from './csv-counts.ts';
import type { CsvInput } from './csv-input.ts';
import {
  type CsvThreadData,
  errorOf,
  type FromThread,
  movable,
  release,
  type ToThread,
} from './csv-thread-protocol.ts';
import { reassignedToShared } from './reassigned-cells.ts';
import type { CountCsvOptions, ScrubCsvOptions } from './scrub-options.ts';

/** `countCsv`'s options, with the exchange data as a table a thread can map. */
export interface ThreadCountOptions extends Omit<CountCsvOptions, 'exchange'> {
  exchange?: ExchangeTable;
  dnc?: DncSet;
  /**
   * Nothing but the input holds its chunks (a file store's read stream: a file's, or an HTTP
   * response's, whose every chunk is a buffer of its own), so they are moved to the thread rather
   * than copied, and freed there. Default: only for a file's stream (`fs.ReadStream`).
   */
  ownedInput?: boolean;
}

export interface ThreadScrubOptions
  extends ThreadCountOptions,
    Pick<ScrubCsvOptions, 'columns' | 'evaluatedAt' | 'reassigned' | 'lists' | 'carrier'> {
  /**
   * The output is done with a chunk once its write callback has run (a file store's writer; not a
   * PassThrough, which still holds it): each chunk of the result is freed then, rather than
   * whenever V8 next collects garbage, which for a large file is about 100 MB later.
   */
  releaseWritten?: boolean;
  /**
   * More than 1: the thread cuts the file into parts and scrubs them on this many threads of its
   * own (`scrubCsvInParallel`): the same result, sooner on a machine with cores to spare. Default 1.
   */
  threads?: number;
}

// From source the thread runs the .ts file under Node's type stripping; from dist/, the built entry.
const entry = new URL(
  import.meta.url.endsWith('.ts') ? './csv-thread-entry.ts' : './csv-thread-entry.js',
  import.meta.url,
);

/** Closes a stream input that will not be read to its end (its file descriptor with it). */
function closeInput(input: CsvInput): void {
  const stream = input as { destroy?: () => void; cancel?: () => Promise<void>; locked?: boolean };
  if (typeof stream.destroy === 'function') stream.destroy();
  else if (typeof stream.cancel === 'function' && !stream.locked) stream.cancel().catch(() => {});
}

/**
 * The thread inherits Node's flags (V8's among them, which a Worker refuses when given them
 * explicitly), except `--input-type`, which only applies to code given on the command line and
 * which a Worker refuses: then the flags must be listed, and when a listed one is refused too the
 * thread starts without any (it needs none).
 */
export function startThread(entry: URL, data: unknown): Worker {
  if (!process.execArgv.some((flag) => flag.startsWith('--input-type'))) {
    return new Worker(entry, { workerData: data });
  }
  try {
    const execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type'));
    return new Worker(entry, { workerData: data, execArgv });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(entry, { workerData: data, execArgv: [] });
  }
}

/**
 * How long a thread that has finished a job waits for the next. A job run by a warm thread starts
 * at once, with the engine loaded and its code already optimised by the job before (a new thread
 * takes 50-150 ms to load, and its first rows run slowly while V8 optimises them again, a fifth of
 * a second of another core's time for a large file). Idle, it costs the memory it holds.
 */
export const WARM_MS = 10_000;

/** The one thread kept warm after a job, if any. */
let warm: { worker: Worker; timer: NodeJS.Timeout; stopped: () => void } | null = null;

/** The thread kept warm (its id), for tests. */
export function warmThreadId(): number | null {
  return warm?.worker.threadId ?? null;
}

/** A warm thread, or a new one. */
function takeThread(): Worker {
  const kept = warm;
  if (kept === null) return startThread(entry, undefined);
  warm = null;
  clearTimeout(kept.timer);
  kept.worker.off('exit', kept.stopped);
  kept.worker.ref();
  return kept.worker;
}

/** Keeps a thread that finished its job cleanly for the next one; it never holds the process open. */
function keepThread(worker: Worker): void {
  if (warm !== null) {
    void worker.terminate();
    return;
  }
  const stopped = () => {
    if (warm?.worker === worker) warm = null;
  };
  const timer = setTimeout(() => {
    stopped();
    void worker.terminate();
  }, WARM_MS);
  timer.unref();
  worker.unref();
  worker.once('exit', stopped);
  warm = { worker, timer, stopped };
}

async function* chunksOf(input: CsvInput): AsyncGenerator<Uint8Array> {
  if (input instanceof Uint8Array) {
    yield input;
    return;
  }
  for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
    yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  }
}

/** The job as the thread gets it: the options without the caller's callbacks, the tables shared. */
function threadDataOf(mode: CsvThreadData['mode'], options: ThreadScrubOptions): CsvThreadData {
  return {
    mode,
    phoneColumn: options.phoneColumn,
    ...(options.header === undefined ? {} : { header: options.header }),
    ...(options.separator === undefined ? {} : { separator: options.separator }),
    ...(options.maxRowBytes === undefined ? {} : { maxRowBytes: options.maxRowBytes }),
    exchange: options.exchange?.toShared() ?? null,
    dnc: options.dnc?.toShared() ?? null,
    ...(options.dncMask === undefined ? {} : { dncMask: options.dncMask }),
    ...(options.columns === undefined ? {} : { columns: [...options.columns] }),
    ...(options.lists === undefined ? {} : { lists: options.lists.toShared() }),
    ...(options.evaluatedAt === undefined ? {} : { evaluatedAt: options.evaluatedAt }),
    ...(options.reassigned === undefined ? {} : { reassigned: reassignedToShared(options.reassigned) }),
    ...(options.carrier === undefined ? {} : { carrier: options.carrier }),
    ...(options.threads === undefined ? {} : { threads: options.threads }),
  };
}

/**
 * Feeds the thread its input as it asks for it, a few chunks ahead: the file is read no faster than
 * it is scrubbed, and no faster than the output can be written. Chunks go one at a time, in order;
 * `owned` ones are moved rather than copied. Returns what to call on each of the thread's pulls.
 */
function inputFeeder(
  worker: Worker,
  chunks: AsyncGenerator<Uint8Array>,
  output: Writable | null,
  owned: boolean,
  settled: () => boolean,
): () => Promise<void> {
  let wanted = 0;
  let feeding = false;
  let ended = false;
  const feed = async () => {
    if (feeding) return;
    feeding = true;
    try {
      while (wanted > 0 && !ended) {
        if (output?.writableNeedDrain) await new Promise((drained) => output.once('drain', drained));
        const next = await chunks.next();
        if (settled()) return;
        wanted--;
        ended = next.done === true;
        if (next.done) {
          worker.postMessage({ type: 'end' } satisfies ToThread);
        } else {
          const move = owned && movable(next.value, true).length > 0;
          const chunk = move ? next.value : new Uint8Array(next.value);
          worker.postMessage({ type: 'chunk', chunk } satisfies ToThread, [chunk.buffer as ArrayBuffer]);
        }
      }
    } finally {
      feeding = false;
    }
  };
  return () => {
    wanted++;
    return feed();
  };
}

function run<T>(
  mode: CsvThreadData['mode'],
  input: CsvInput,
  output: Writable | null,
  options: ThreadScrubOptions,
): Promise<T> {
  const { signal, onProgress } = options;
  if (signal?.aborted) {
    closeInput(input);
    return Promise.reject(signal.reason);
  }
  const worker = takeThread();
  worker.postMessage({ type: 'job', data: threadDataOf(mode, options) } satisfies ToThread);
  const chunks = chunksOf(input);
  // Chunks nothing else holds are moved to the thread. Chunks from other sources may be the
  // caller's own buffers: copied, and the copy moved (posting a view would copy the whole buffer
  // under it).
  const owned = options.ownedInput ?? input instanceof ReadStream;
  const written = options.releaseWritten ? release : undefined;

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown, result?: T) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      worker.off('message', onMessage);
      worker.off('error', settle);
      worker.off('exit', onExit);
      // A thread that failed, or was stopped part-way, may still hold the job: it runs no other.
      if (error) void worker.terminate();
      else keepThread(worker);
      void chunks.return(undefined);
      if (error) {
        closeInput(input);
        output?.destroy(error as Error);
        reject(error);
      } else {
        output?.end();
        resolve(result as T);
      }
    };
    const abort = () => settle(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', abort, { once: true });
    // An output that fails or is closed before the end (a store that stops reading) ends the run;
    // otherwise the thread would wait forever for the output to drain.
    output?.once('error', (error) => settle(error));
    output?.once('close', () => settle(new Error('The output was closed before the CSV was written')));

    // The thread asks for input as it goes (`inputFeeder`).
    const pull = inputFeeder(worker, chunks, output, owned, () => settled);

    const onMessage = (message: FromThread) => {
      switch (message.type) {
        case 'pull':
          pull().catch((error: unknown) => settle(error));
          break;
        case 'out':
          output?.write(message.chunk, () => written?.(message.chunk));
          break;
        case 'progress':
          onProgress?.({ rows: message.rows, bytes: message.bytes });
          break;
        case 'done':
          settle(null, message.result as T);
          break;
        case 'error':
          settle(errorOf(message.error));
          break;
      }
    };
    const onExit = (code: number) => settle(new Error(`The CSV thread stopped early (exit code ${code})`));
    worker.on('message', onMessage);
    worker.on('error', settle);
    worker.on('exit', onExit);
  });
}

/**
 * `scrubCsv` on a worker thread, so that scrubbing a large file never holds up the caller's event
 * loop (the API answering checks). The tables are shared with the thread, not copied; the file
 * streams through in the caller's chunks, read as the thread asks for them.
 */
export function scrubCsvInThread(
  input: CsvInput,
  output: Writable,
  options: ThreadScrubOptions,
): Promise<ScrubCsvResult> {
  return run('scrub', input, output, options);
}

/** `countCsv` on a worker thread: the quote for a file, off the caller's event loop. */
export function countCsvInThread(input: CsvInput, options: ThreadCountOptions): Promise<CsvCounts> {
  return run('count', input, null, options);
}

/** `countCsvRows` on a worker thread: a file's records, to charge a job, off the caller's event loop. */
export function countCsvRowsInThread(
  input: CsvInput,
  options: Omit<ThreadCountOptions, 'exchange' | 'dnc' | 'dncMask'>,
): Promise<CsvRowCount> {
  return run('rows', input, null, options);
}
