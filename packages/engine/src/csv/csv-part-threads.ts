import type { Worker } from 'node:worker_threads';
import type { CsvShape, ScrubbedCsvPart } from './csv-counts.ts';
import type { CsvPart } from './csv-parts.ts';
import { startThread, WARM_MS } from './csv-thread.ts';
import {
  type CsvPartThreadData,
  errorOf,
  movable,
  type PartFromThread,
  type PartToThread,
} from './csv-thread-protocol.ts';

// From source a thread runs the .ts file under Node's type stripping; from dist/, the built entry.
const entry = new URL(
  import.meta.url.endsWith('.ts') ? './csv-part-thread-entry.ts' : './csv-part-thread-entry.js',
  import.meta.url,
);

interface Waiting {
  resolve: (part: ScrubbedCsvPart) => void;
  reject: (error: Error) => void;
}

interface PartThread {
  worker: Worker;
  /** Whether it has loaded the engine (a few tens of milliseconds after it starts). */
  ready: boolean;
  /** Its parts not yet scrubbed, by index. */
  waiting: Map<number, Waiting>;
  /** Why it stopped (it failed, or exited): it takes no more parts. */
  stopped: Error | null;
  /** Its listeners for this file, taken off when it is kept warm for the next. */
  listeners: {
    message: (message: PartFromThread) => void;
    error: (error: Error) => void;
    exit: (code: number) => void;
  };
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Parts a thread has waiting (one scrubbed, the next ready) before it counts as busy. */
const AHEAD = 2;

/**
 * Threads left warm by the file before, loaded and with their code optimised (a new thread takes
 * 50-100 ms of CPU to load the engine, and its first parts run slowly while V8 optimises them
 * again): the next file within `WARM_MS` starts on them. They never hold the process open.
 */
const warm: { workers: Worker[]; timer: NodeJS.Timeout | null } = { workers: [], timer: null };

/** The threads kept warm (their ids), for tests. */
export function warmPartThreadIds(): number[] {
  return warm.workers.map((worker) => worker.threadId);
}

function dropWarm(worker: Worker): void {
  const at = warm.workers.indexOf(worker);
  if (at !== -1) warm.workers.splice(at, 1);
}

function takeWarm(): Worker | null {
  const worker = warm.workers.pop() ?? null;
  if (worker === null) return null;
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.ref();
  if (warm.workers.length === 0 && warm.timer !== null) {
    clearTimeout(warm.timer);
    warm.timer = null;
  }
  return worker;
}

function keepWarm(worker: Worker, most: number): void {
  if (warm.workers.length >= most) {
    void worker.terminate();
    return;
  }
  worker.postMessage({ type: 'idle' } satisfies PartToThread);
  worker.unref();
  worker.once('exit', () => dropWarm(worker));
  // A warm thread that fails is not taken again.
  worker.on('error', () => dropWarm(worker));
  warm.workers.push(worker);
  if (warm.timer !== null) clearTimeout(warm.timer);
  warm.timer = setTimeout(() => {
    warm.timer = null;
    for (const idle of warm.workers.splice(0)) void idle.terminate();
  }, WARM_MS);
  warm.timer.unref();
}

/**
 * `count` threads scrubbing the parts of one file (`scrubCsvPart`): those a file before left warm,
 * and new ones, all started at once. A part goes to the ready thread with the fewest parts
 * waiting. A new thread takes tens of milliseconds to load the engine (hundreds from source, under
 * type stripping), and counts as busy until then, so that the caller scrubs on rather than wait for
 * it. The tables are shared with the threads, not copied; each part's bytes are moved to its
 * thread, and its output moved back. Closed cleanly, the threads stay warm for the next file.
 */
export class CsvPartThreads {
  readonly #threads: PartThread[] = [];
  #next = 0;
  #closed = false;

  constructor(count: number, data: CsvPartThreadData) {
    for (let i = 0; i < count; i++) this.#start(data);
  }

  /** Whether every thread is loading or has parts enough waiting: the caller may as well scrub the next itself. */
  busy(): boolean {
    return this.#threads.every(
      (thread) => !thread.ready || thread.stopped !== null || thread.waiting.size >= AHEAD,
    );
  }

  /** Hands a part to a thread, ready or not (a thread still loading reads its parts once it has). */
  scrub(part: CsvPart, shape: CsvShape): Promise<ScrubbedCsvPart> {
    const thread = this.#pick();
    if (thread.stopped !== null) return Promise.reject(thread.stopped);
    const index = this.#next++;
    return new Promise<ScrubbedCsvPart>((resolve, reject) => {
      thread.waiting.set(index, { resolve, reject });
      const { bytes, last } = part;
      // Moved when the part has a buffer of its own (`partsOf` makes one for each), else copied.
      thread.worker.postMessage(
        { type: 'part', index, bytes, last, shape } satisfies PartToThread,
        movable(bytes, false),
      );
    });
  }

  /**
   * Stops the threads; parts still waiting fail. `keep`: the file was scrubbed to its end, so each
   * thread that has loaded, has nothing waiting and has not failed is kept warm for the next file.
   */
  close(keep = false): void {
    this.#closed = true;
    for (const thread of this.#threads) {
      const { worker, listeners } = thread;
      if (keep && thread.ready && thread.stopped === null && thread.waiting.size === 0) {
        worker.off('message', listeners.message);
        worker.off('error', listeners.error);
        worker.off('exit', listeners.exit);
        keepWarm(worker, this.#threads.length);
        continue;
      }
      void worker.terminate();
      this.#fail(thread, new Error('The CSV threads were stopped'));
    }
  }

  #pick(): PartThread {
    if (this.#closed) throw new Error('The CSV threads were stopped');
    // A running thread before a stopped one, a ready one before one loading, then the fewest waiting.
    const rank = (thread: PartThread) =>
      (thread.stopped === null ? 0 : 2e9) + (thread.ready ? 0 : 1e9) + thread.waiting.size;
    let best = this.#threads[0]!;
    for (const thread of this.#threads) {
      if (rank(thread) < rank(best)) best = thread;
    }
    return best;
  }

  #start(data: CsvPartThreadData): void {
    const kept = takeWarm();
    const worker = kept ?? startThread(entry, undefined);
    const thread: PartThread = {
      worker,
      ready: kept !== null,
      waiting: new Map(),
      stopped: null,
      listeners: {
        message: (message) => this.#receive(thread, message),
        error: (error) => this.#fail(thread, error),
        exit: (code) => this.#fail(thread, new Error(`A CSV thread stopped early (exit code ${code})`)),
      },
    };
    worker.on('message', thread.listeners.message);
    worker.on('error', thread.listeners.error);
    worker.on('exit', thread.listeners.exit);
    worker.postMessage({ type: 'job', data } satisfies PartToThread);
    this.#threads.push(thread);
  }

  #receive(thread: PartThread, message: PartFromThread): void {
    if (message.type === 'ready') {
      thread.ready = true;
      return;
    }
    const waiting = thread.waiting.get(message.index);
    if (!waiting) return;
    thread.waiting.delete(message.index);
    if (message.type === 'error') {
      waiting.reject(errorOf(message.error));
      return;
    }
    const { part } = message;
    waiting.resolve({
      ...part,
      output: part.output.map(asBuffer),
      prefix: part.prefix && asBuffer(part.prefix),
    });
  }

  #fail(thread: PartThread, error: Error): void {
    thread.stopped ??= error;
    for (const waiting of thread.waiting.values()) waiting.reject(error);
    thread.waiting.clear();
  }
}
