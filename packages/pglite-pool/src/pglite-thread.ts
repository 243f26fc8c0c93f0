import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  fromThreadError,
  type PGliteThreadOptions,
  type Reply,
  type Request,
} from './pglite-thread-protocol.js';

export type { PGliteThreadOptions };

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Listener = (payload: string) => void;
// Request without its id, one case at a time.
type Ask = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/** How long `close` waits for PGlite to write its last pages before it stops the thread anyway. */
const CLOSE_DEADLINE_MS = 10_000;

/**
 * Where PGlite runs, seen from the caller: a worker thread, or a child process (`PGliteProcess`).
 * Both carry the same messages (`pglite-thread-protocol.ts`) to the same script (`pglite-worker.ts`).
 */
export interface PGliteLink {
  send(request: Request): void;
  /** Calls `onReply` with each reply, and `onEnd` once the other side is gone (it failed or exited). */
  attach(onReply: (reply: Reply) => void, onEnd: (reason: Error) => void): () => void;
  /** Whether the caller's process stays alive for the other side: only while a request waits. */
  ref(): void;
  unref(): void;
  /** Ends the other side now. */
  stop(): Promise<void>;
}

/**
 * PGlite on a worker thread of its own, so its work (parsing, planning, writing: most of a
 * request's CPU on the embedded database) runs beside the caller's event loop instead of in it.
 * The same calls as PGlite's own that `PGlitePool` and the server use: `query`, `listen`,
 * `dumpDataDir`, `close`. While no request waits, the thread keeps no process alive.
 */
export class PGliteThread {
  readonly #link: PGliteLink;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<Listener>>();
  #nextId = 1;
  #stopped: Error | null = null;
  #closing = false;
  #lost!: (reason: Error) => void;
  /**
   * Settles with the reason should the other side end on its own (a crash, a kill), not by
   * `close`: every request then fails with that reason. Never settles otherwise.
   */
  readonly lost = new Promise<Error>((resolve) => {
    this.#lost = resolve;
  });

  protected constructor(link: PGliteLink) {
    this.#link = link;
    link.attach(
      (reply) => this.#receive(reply),
      (reason) => {
        if (!this.#closing && !this.#stopped) this.#lost(reason);
        this.#stop(reason);
      },
    );
  }

  /** Starts the thread and opens PGlite in it; refused once `timeoutMs` passes first. */
  static async create(options: PGliteThreadOptions, timeoutMs = 120_000): Promise<PGliteThread> {
    // The script's path is worked out apart from `new Worker(...)`: bundlers that see
    // `new Worker(new URL(..., import.meta.url))` try to bundle the worker (Vite, in the dashboard's tests).
    const worker = new Worker(pgliteWorkerScript(), { workerData: options });
    return new PGliteThread(await opened(workerLink(worker), timeoutMs, 'thread'));
  }

  async query<R>(sql: string, params: unknown[] = []): Promise<{ rows: R[]; affectedRows?: number }> {
    return (await this.#ask({ op: 'query', sql, params })) as { rows: R[]; affectedRows?: number };
  }

  /** Runs `COPY ... FROM '/dev/blob'` with `text` as the blob (the rows, in COPY's text format). */
  async copyFrom(sql: string, text: string): Promise<void> {
    await this.#ask({ op: 'copy', sql, text });
  }

  /** Calls `onPayload` with each `NOTIFY` on `channel` until the returned function is called. */
  async listen(channel: string, onPayload: Listener): Promise<() => Promise<void>> {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      await this.#ask({ op: 'listen', channel });
    }
    set.add(onPayload);
    return async () => {
      set.delete(onPayload);
      if (set.size > 0 || this.#listeners.get(channel) !== set) return;
      this.#listeners.delete(channel);
      if (!this.#stopped) await this.#ask({ op: 'unlisten', channel });
    };
  }

  /** The data directory as a tarball, as `PGlite.dumpDataDir` makes it. */
  async dumpDataDir(compression: 'gzip'): Promise<Blob> {
    if (compression !== 'gzip') throw new Error('Only gzip dumps cross the thread.');
    return new Blob([(await this.#ask({ op: 'dump' })) as Uint8Array<ArrayBuffer>]);
  }

  /** Closes PGlite, then stops the thread; stops it anyway once `timeoutMs` passes. */
  async close(timeoutMs = CLOSE_DEADLINE_MS): Promise<void> {
    if (this.#stopped) return;
    this.#closing = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await Promise.race([this.#ask({ op: 'close' }).catch(() => {}), late]);
    } finally {
      clearTimeout(timer);
      this.#stop(new Error('The embedded database is closed.'));
      await this.#link.stop();
    }
  }

  #ask(request: Ask): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#link.ref();
      this.#pending.set(id, { resolve, reject });
      this.#link.send({ ...request, id } as Request);
    });
  }

  #receive(reply: Reply): void {
    if (reply.kind === 'notify') {
      for (const listener of this.#listeners.get(reply.channel) ?? []) listener(reply.payload);
      return;
    }
    if (reply.kind !== 'done' && reply.kind !== 'error') return;
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#link.unref();
    if (reply.kind === 'done') pending.resolve(reply.value);
    else pending.reject(fromThreadError(reply.error));
  }

  /** Fails every request still waiting: the thread is gone. */
  #stop(reason: Error): void {
    this.#stopped ??= reason;
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
    this.#link.unref();
  }
}

/** Waits for the other side's `ready`; stops it and throws if it fails, ends or is late. */
export async function opened(link: PGliteLink, timeoutMs: number, what: string): Promise<PGliteLink> {
  let detach = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The embedded database did not open within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      const settle = (error?: Error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve();
      };
      detach = link.attach(
        (reply) => {
          if (reply.kind === 'ready') settle();
          else if (reply.kind === 'failed') settle(fromThreadError(reply.error));
        },
        (reason) =>
          settle(new Error(`The embedded database's ${what} ended while opening: ${reason.message}`)),
      );
    });
  } catch (error) {
    detach();
    await link.stop();
    throw error;
  } finally {
    detach();
  }
  link.unref();
  return link;
}

function workerLink(worker: Worker): PGliteLink {
  return {
    send: (request) => worker.postMessage(request),
    attach(onReply, onEnd) {
      const onError = (error: Error) => onEnd(error);
      const onExit = (code: number) =>
        onEnd(new Error(`The embedded database's thread stopped (exit code ${code}).`));
      worker.on('message', onReply).on('error', onError).on('exit', onExit);
      return () => worker.off('message', onReply).off('error', onError).off('exit', onExit);
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    stop: async () => {
      await worker.terminate();
    },
  };
}

/** The script PGlite runs in, on a thread or in a child process. */
export function pgliteWorkerScript(): string {
  return fileURLToPath(new URL(`./pglite-worker.${workerExtension()}`, import.meta.url));
}

/** `.ts` when this module runs from source (tests, benches on Node's type stripping), `.js` once built. */
function workerExtension(): 'ts' | 'js' {
  return import.meta.url.endsWith('.ts') ? 'ts' : 'js';
}
