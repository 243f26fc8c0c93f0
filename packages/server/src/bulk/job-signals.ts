import type { Logger } from 'pino';
import type { DatabaseHandle } from '../storage/database.js';
import type { JobRow } from './job-store.js';

/** The database channel the bulk queue's news travels on (`NOTIFY`), between every process. */
const CHANNEL = 'scrub_bulk_jobs';
const QUEUED = 'queued';
const ENDED = 'ended:';

/** A wait for one job's end, to be stopped whatever happens. */
export interface JobEndWatch {
  /**
   * Settles when the job completes or fails (never rejects): with its row when a worker of this
   * process completed it (nothing left to read), else null (read it again).
   */
  ended: Promise<JobRow | null>;
  stop(): void;
}

/**
 * The bulk queue's news, in every process at once: a job was queued (workers look at once rather
 * than at their next poll) and a job ended (a client waiting on `GET /bulk/jobs/{id}?wait=` is
 * answered at once). Carried by the database's `LISTEN`/`NOTIFY`, on PostgreSQL between processes
 * and on the embedded database within this one. A lost notification only delays: workers still
 * poll and waits still time out.
 */
export class JobSignals {
  readonly #onQueued = new Set<() => void>();
  readonly #onAnyEnded = new Set<(jobId: string) => void>();
  readonly #onEnded = new Map<string, Set<(job: JobRow | null) => void>>();
  #unlisten: (() => Promise<void>) | null = null;
  /** The service is closing: waits end at once. */
  #closing = false;

  private constructor(
    private readonly database: DatabaseHandle,
    private readonly logger: Logger | false,
  ) {}

  static async open(database: DatabaseHandle, logger: Logger | false): Promise<JobSignals> {
    const signals = new JobSignals(database, logger);
    signals.#unlisten = await database.listen(CHANNEL, (payload) => signals.#receive(payload));
    return signals;
  }

  /** Tells every worker a job is waiting. */
  queued(): Promise<void> {
    return this.#send(QUEUED);
  }

  /** Tells every waiting client the job has ended; those of this process get `completed`, its row, when given. */
  ended(jobId: string, completed?: JobRow): Promise<void> {
    if (completed) for (const resolve of this.#onEnded.get(jobId) ?? []) resolve(completed);
    return this.#send(`${ENDED}${jobId}`);
  }

  /** Calls `listener` whenever a job is queued, in any process; returns the unsubscribe. */
  onQueued(listener: () => void): () => void {
    this.#onQueued.add(listener);
    return () => this.#onQueued.delete(listener);
  }

  /** Calls `listener` whenever any job ends, in any process (the webhook deliverer wakes); returns the unsubscribe. */
  onEnded(listener: (jobId: string) => void): () => void {
    this.#onAnyEnded.add(listener);
    return () => this.#onAnyEnded.delete(listener);
  }

  /** Starts watching for the job's end; watch before reading its status, so no end is missed. */
  watchEnd(jobId: string): JobEndWatch {
    let stop = () => {};
    const ended = new Promise<JobRow | null>((resolve) => {
      const set = this.#onEnded.get(jobId) ?? new Set();
      this.#onEnded.set(jobId, set);
      set.add(resolve);
      if (this.#closing) resolve(null);
      stop = () => {
        set.delete(resolve);
        if (set.size === 0 && this.#onEnded.get(jobId) === set) this.#onEnded.delete(jobId);
        resolve(null);
      };
    });
    return { ended, stop };
  }

  /** Ends every wait now (the service is closing): each waiting client is answered with its job's progress. */
  answerWaiting(): void {
    this.#closing = true;
    for (const set of this.#onEnded.values()) for (const resolve of set) resolve(null);
    this.#onEnded.clear();
  }

  async close(): Promise<void> {
    await this.#unlisten?.();
    this.#unlisten = null;
    this.answerWaiting();
  }

  #receive(payload: string): void {
    if (payload === QUEUED) {
      for (const listener of this.#onQueued) listener();
    } else if (payload.startsWith(ENDED)) {
      const jobId = payload.slice(ENDED.length);
      for (const resolve of this.#onEnded.get(jobId) ?? []) resolve(null);
      for (const listener of this.#onAnyEnded) listener(jobId);
    }
  }

  async #send(payload: string): Promise<void> {
    try {
      await this.database.notify(CHANNEL, payload);
    } catch (error) {
      if (this.logger) this.logger.warn({ err: error, payload }, 'bulk queue notification not sent');
    }
  }
}
