import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DncListDate } from '@scrub/contract';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import { rowsScrubbed } from '../metrics/service-metrics.js';
import { PollPause } from '../poll-pause.js';
import type { Database } from '../storage/schema.js';
import { inRootSpan, type Tracer } from '../tracing/spans.js';
import { fileLinks, recordsOf } from './file-mail.js';
import type { JobSignals } from './job-signals.js';
import {
  beat,
  claimNextJob,
  completeJob,
  failJob,
  type JobOutcome,
  type JobRow,
  type OnJobEnd,
  releaseJob,
} from './job-store.js';

/** Attempts at one job before it is failed: a file that kills its worker's process must not kill them all. */
const MAX_ATTEMPTS = 3;
/** Heartbeats in a row that fail before a worker gives a job up (another worker may have taken it over). */
const MISSED_BEATS = 5;

/** How a run of a job ended: here (with its row when completed), or left to another worker. */
interface JobRun {
  endedHere: boolean;
  completed?: JobRow;
}
const ENDED_HERE: JobRun = { endedHere: true };
const LEFT: JobRun = { endedHere: false };

/** Reads a job's upload and writes its result: the CPU-bound part, off the API's event loop. */
export interface JobProcessor {
  /**
   * Data records in the uploaded file (what submitting charges for); throws UnprocessableFile.
   * `file`: its bytes when at hand (an inline job's), counted without reading the store again.
   */
  count(job: JobRow, file?: Buffer): Promise<number>;
  /** Records, distinct valid numbers and duplicates of the uploaded file, for a quote; throws UnprocessableFile. */
  /** `dncLists`: the lists the job would answer from now, with their dates. */
  quote(
    job: JobRow,
  ): Promise<{ records: number; uniqueNumbers: number; duplicates: number; dncLists: DncListDate[] }>;
  process(job: JobRow, onProgress: (processedRows: number) => void, signal: AbortSignal): Promise<JobOutcome>;
}

/** Thrown by a processor for a file it cannot scrub: the job fails with this message, credits given back. */
export class UnprocessableFile extends Error {
  override name = 'UnprocessableFile';

  /** `empty`: the file has no rows at all (the seed's 'Csv is empty'). */
  constructor(
    message: string,
    readonly reason: 'empty' | 'unreadable' = 'unreadable',
  ) {
    super(message);
  }
}

export interface BulkWorkerOptions {
  db: Kysely<Database>;
  processor: JobProcessor;
  mailer: Mailer;
  logger: Logger | false;
  /** Where the file pages live, for the e-mail. */
  publicUrl: () => string;
  /** Wakes the worker when a job is queued in any process, and tells waiting clients a job ended. */
  signals?: JobSignals;
  /** Runs in the transaction that ends each job: its webhook event is written with it. */
  onJobEnd?: OnJobEnd;
  /**
   * How often an idle worker looks for jobs anyway: for a job whose worker died (taken over when
   * stale) and for a queued notification lost while the database connection was down.
   */
  pollMs?: number;
  /** How often a working worker records progress and proves itself alive. */
  beatMs?: number;
  /** A job whose worker has not beaten for this long is taken over (its process died). */
  staleSeconds?: number;
  /** Starts each job's span (`bulk job`) when tracing is on. */
  tracer?: Tracer | null;
}

/**
 * Takes jobs from the queue one at a time and runs them to the end: completed with its counts and
 * the credits it did not need given back, or failed with every credit given back. Any number of
 * workers, in any number of processes, share the queue.
 */
export class BulkWorker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  #stopped = false;
  readonly #pause = new PollPause();
  #loop: Promise<void> | null = null;
  readonly #abort = new AbortController();
  /** A job was abandoned by stop(). */
  #cut = false;

  constructor(private readonly options: BulkWorkerOptions) {}

  #unsubscribe: (() => void) | null = null;

  start(): void {
    this.#unsubscribe ??= this.options.signals?.onQueued(() => this.notify()) ?? null;
    this.#loop ??= this.#run();
  }

  /** A job was queued in this process: look now rather than at the next poll. */
  notify(): void {
    this.#pause.wake();
  }

  /**
   * Stops taking jobs. A job under way may end on its own until `finishBy` aborts (at once without
   * it); then it is abandoned and put back in the queue, to be run again from the start by any
   * worker. Answers whether a job was cut so.
   */
  async stop(finishBy?: AbortSignal): Promise<boolean> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.notify();
    if (finishBy && !finishBy.aborted) {
      const deadline = new Promise<void>((resolve) => finishBy.addEventListener('abort', () => resolve()));
      await Promise.race([this.#loop, deadline]);
    }
    this.#abort.abort();
    await this.#loop;
    return this.#cut;
  }

  async #run(): Promise<void> {
    const { db, logger, pollMs = 1000, staleSeconds = 30 } = this.options;
    while (!this.#stopped) {
      let job: JobRow | undefined;
      try {
        job = await claimNextJob(db, this.id, staleSeconds);
      } catch (error) {
        if (logger) logger.error({ err: error }, 'bulk queue unavailable');
      }
      if (job) {
        const run = await this.#tracedJob(job);
        // Ended one way or the other unless this worker stopped or lost the job to another. Waiting
        // clients are told first: the owner's mail is not what they wait for.
        if (run.endedHere) await this.options.signals?.ended(job.id, run.completed);
        if (run.completed) await this.#tellOwnerOf(run.completed);
        continue;
      }
      await this.#pause.wait(pollMs);
    }
  }

  /** Runs the job in a span of its own: download, scrub and upload are its children (csv-processor.ts). */
  #tracedJob(job: JobRow): Promise<JobRun> {
    const attributes = {
      'scrub.job.id': job.id,
      'scrub.job.attempt': job.attempts,
      'scrub.worker.id': this.id,
    };
    return inRootSpan(this.options.tracer ?? null, 'bulk job', { attributes }, async (span) => {
      const run = await this.#runJob(job);
      span?.setAttributes({ 'scrub.job.ended_here': run.endedHere });
      return run;
    });
  }

  /** Runs the job: ended here (completed or failed), or left to another worker. */
  async #runJob(job: JobRow): Promise<JobRun> {
    const { db, processor, logger, beatMs = 2000, onJobEnd } = this.options;
    const log = logger ? logger.child({ job_id: job.id, attempt: job.attempts }) : null;
    if (job.attempts > MAX_ATTEMPTS) {
      // A file that took its worker's process down every time would otherwise take down the next one.
      await failJob(
        db,
        job.id,
        this.id,
        `The file could not be processed in ${MAX_ATTEMPTS} attempts. Your credits were given back.`,
        onJobEnd,
      );
      log?.error('bulk job given up');
      return ENDED_HERE;
    }
    log?.info({ file: job.file_name }, 'bulk job started');
    let processed = 0;
    let lost = false;
    let missedBeats = 0;
    const lease = new AbortController();
    const abortBoth = () => lease.abort();
    this.#abort.signal.addEventListener('abort', abortBoth);
    if (this.#abort.signal.aborted) lease.abort();
    const heartbeat = setInterval(() => {
      beat(db, job.id, this.id, processed)
        .then((held) => {
          missedBeats = 0;
          if (!held) {
            lost = true;
            lease.abort();
          }
        })
        .catch((error) => {
          log?.warn({ err: error }, 'bulk job heartbeat failed');
          // Unheard for this long, the job counts as stale to the others, who may take it over.
          if (++missedBeats >= MISSED_BEATS) {
            lost = true;
            lease.abort();
          }
        });
    }, beatMs);
    let done: JobRow | undefined;
    try {
      const outcome = await processor.process(
        job,
        (rows) => {
          if (rows > processed) rowsScrubbed.inc(rows - processed);
          processed = rows;
        },
        lease.signal,
      );
      // Rows the last progress report did not tell of.
      if (outcome.totalRows > processed) rowsScrubbed.inc(outcome.totalRows - processed);
      processed = outcome.totalRows;
      if (job.credits_charged > 0 && outcome.totalRows > (job.total_rows ?? 0)) {
        throw new UnprocessableFile(
          `The file changed after it was submitted: it has ${outcome.totalRows.toLocaleString('en-US')} records, and ${(job.total_rows ?? 0).toLocaleString('en-US')} were paid for. Upload it again in a new job. Your credits were given back.`,
        );
      }
      done = await completeJob(db, job.id, this.id, outcome, onJobEnd);
      if (done) log?.info({ rows: outcome.totalRows, reversed: done.credits_reversed }, 'bulk job completed');
    } catch (error) {
      if (lost) {
        log?.info('bulk job left to be taken over');
        return LEFT;
      }
      if (this.#abort.signal.aborted) {
        this.#cut = true;
        await this.#putBack(job);
        return LEFT;
      }
      const message =
        error instanceof UnprocessableFile
          ? error.message
          : 'The file could not be processed because of a server error. Your credits were given back.';
      if (!(error instanceof UnprocessableFile)) log?.error({ err: error }, 'bulk job failed');
      await failJob(db, job.id, this.id, message, onJobEnd).catch((failure) =>
        log?.error({ err: failure }, 'could not mark the job failed'),
      );
    } finally {
      clearInterval(heartbeat);
      this.#abort.signal.removeEventListener('abort', abortBoth);
    }
    return done ? { endedHere: true, completed: done } : ENDED_HERE;
  }

  async #tellOwnerOf(job: JobRow): Promise<void> {
    const { logger } = this.options;
    await this.#tellOwner(job).catch((error) => {
      if (logger) logger.error({ err: error, job_id: job.id }, 'file-ready mail not stored');
    });
  }

  /** A job stopped in the middle goes back to the queue, and the other workers are told at once. */
  async #putBack(job: JobRow): Promise<void> {
    const { db, logger, signals } = this.options;
    try {
      if (await releaseJob(db, job.id, this.id)) {
        if (logger) logger.warn({ job_id: job.id }, 'bulk job put back in the queue: its worker stopped');
        await signals?.queued();
      }
    } catch (error) {
      // Left processing: taken over once stale, as after a crash.
      if (logger)
        logger.error({ err: error, job_id: job.id }, 'bulk job not put back; taken over when stale');
    }
  }

  async #tellOwner(job: JobRow): Promise<void> {
    const { db, mailer, publicUrl } = this.options;
    const owner = await db
      .selectFrom('profiles')
      .select('email')
      .where('id', '=', job.profile_id)
      .executeTakeFirst();
    if (!owner) return;
    await mailer.send({
      kind: 'file_ready',
      to: owner.email,
      subject: `Your file ${job.file_name} is ready`,
      text: [
        `Your file ${job.file_name} has been scrubbed: ${recordsOf(job)}.`,
        ...fileLinks(job, publicUrl()),
      ].join('\n\n'),
    });
  }
}
