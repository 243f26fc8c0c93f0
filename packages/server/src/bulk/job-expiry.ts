import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { BlobStore } from '../blob-store/blob-store.js';
import type { Database } from '../storage/schema.js';
import { failStaleStreamJobs, type OnJobEnd } from './job-store.js';

/** A streamed job whose request has not beaten for this long is failed (its process died). */
const STREAM_STALE_SECONDS = 120;

/** How many unsubmitted jobs one sweep removes; the next sweep takes the rest. */
const BATCH = 500;

/**
 * Removes jobs created before `cutoff` and never submitted (their upload URL is long dead), with
 * the file uploaded for them if any: an account cannot fill the store with files it never scrubs.
 * Answers how many went. A job submitted meanwhile is left alone.
 */
export async function expireUnsubmittedJobs(
  db: Kysely<Database>,
  blobStore: BlobStore,
  cutoff: Date,
): Promise<number> {
  const stale = await db
    .selectFrom('bulk_jobs')
    .select(['id', 'upload_key'])
    .where('status', '=', 'awaiting_upload')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(BATCH)
    .execute();
  let removed = 0;
  for (const job of stale) {
    const gone = await db
      .deleteFrom('bulk_jobs')
      .where('id', '=', job.id)
      .where('status', '=', 'awaiting_upload')
      .returning('id')
      .executeTakeFirst();
    if (!gone) continue;
    removed++;
    await blobStore.delete(job.upload_key);
  }
  return removed;
}

/** Old rows of another feature that the sweep removes too. */
export interface OtherSweep {
  what: string;
  remove: (now: Date) => Promise<number>;
}

export interface JobExpiryOptions {
  db: Kysely<Database>;
  blobStore: BlobStore;
  logger: Logger | false;
  /** How long after its creation a job not submitted is removed. */
  ttlSeconds: number;
  /** How often to sweep. */
  everySeconds: number;
  /** Runs in the transaction that fails a lost streamed job (its webhook event). */
  onJobEnd?: OnJobEnd | undefined;
  /** Other old rows the same sweep removes (webhook events past their retention, stale imports); each answers how many went. */
  alsoRemove?: OtherSweep[] | undefined;
}

/** How long after the service's start the first sweep runs. */
const FIRST_SWEEP_AFTER_MS = 10_000;

/**
 * Sweeps unsubmitted jobs past their TTL now and then, in the processes that run the bulk worker,
 * and whatever else `alsoRemove` names.
 */
export class JobExpiry {
  #timer: NodeJS.Timeout | undefined;
  #firstSweep: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> = Promise.resolve();

  constructor(private readonly options: JobExpiryOptions) {}

  start(): void {
    this.#timer = setInterval(() => this.sweep(), this.options.everySeconds * 1000);
    this.#timer.unref();
    // The first sweep waits for the service's start to be over: on the embedded database its
    // statements would run on the one connection while the app is built and `/health` first asked.
    this.#firstSweep = setTimeout(() => this.sweep(), FIRST_SWEEP_AFTER_MS);
    this.#firstSweep.unref();
  }

  /** One sweep after any in flight; a failure is logged and the next sweep tries again. */
  sweep(now = new Date()): Promise<void> {
    const { db, blobStore, logger, ttlSeconds } = this.options;
    this.#sweeping = this.#sweeping.then(async () => {
      try {
        const removed = await expireUnsubmittedJobs(
          db,
          blobStore,
          new Date(now.getTime() - ttlSeconds * 1000),
        );
        if (removed > 0 && logger) logger.info({ removed }, 'removed bulk jobs never submitted');
        const lost = await failStaleStreamJobs(db, STREAM_STALE_SECONDS, this.options.onJobEnd);
        if (lost > 0 && logger) logger.warn({ lost }, 'failed streamed bulk jobs whose request was lost');
        for (const other of this.options.alsoRemove ?? []) {
          const old = await other.remove(now);
          if (old > 0 && logger) logger.info({ removed: old }, `removed ${other.what}`);
        }
      } catch (error) {
        if (logger) logger.warn({ err: error }, 'could not remove expired bulk jobs; will try again');
      }
    });
    return this.#sweeping;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    clearTimeout(this.#firstSweep);
    await this.#sweeping;
  }
}
