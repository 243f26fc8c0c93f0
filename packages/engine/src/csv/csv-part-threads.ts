import type { Worker } from 'node:worker_threads';
import type { CsvShape, ScrubbedCsvPart } from './csv-counts.ts';
import type { CsvPart } from './csv-parts.ts';
import { startThread } from './csv-thread.ts';
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
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Parts a thread has waiting (one scrubbed, the next ready) before it counts as busy. */
const AHEAD = 2;

/**
 * `count` threads scrubbing the parts of one file (`scrubCsvPart`), all started at once: a part
 * goes to the ready thread with the fewest parts waiting. A thread takes tens of milliseconds to
 * load the engine (hundreds from source, under type stripping), and counts as busy until then, so
 * that the caller scrubs on rather than wait for it. The tables are shared with the threads, not
 * copied; each part's bytes are moved to its thread, and its output moved back.
 */
export class CsvPartThreads {
  readonly #threads: PartThread[] = [];
  #next = 0;
  #closed = false;
  readonly #data: CsvPartThreadData;

  constructor(count: number, data: CsvPartThreadData) {
    this.#data = data;
    for (let i = 0; i < count; i++) this.#start();
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
      thread.worker.postMessage({ index, bytes, last, shape } satisfies PartToThread, movable(bytes, false));
    });
  }

  /** Stops every thread; parts still waiting fail. */
  close(): void {
    this.#closed = true;
    for (const thread of this.#threads) {
      void thread.worker.terminate();
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

  #start(): void {
    const thread: PartThread = {
      worker: startThread(entry, this.#data),
      ready: false,
      waiting: new Map(),
      stopped: null,
    };
    thread.worker.on('message', (message: PartFromThread) => {
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
    });
    thread.worker.on('error', (error) => this.#fail(thread, error));
    thread.worker.on('exit', (code) =>
      this.#fail(thread, new Error(`A CSV thread stopped early (exit code ${code})`)),
    );
    this.#threads.push(thread);
  }

  #fail(thread: PartThread, error: Error): void {
    thread.stopped ??= error;
    for (const waiting of thread.waiting.values()) waiting.reject(error);
    thread.waiting.clear();
  }
}
