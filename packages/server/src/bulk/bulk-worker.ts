import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.js';
import type { Database } from '../storage/schema.js';
import { beat, claimNextJob, completeJob, failJob, type JobOutcome, type JobRow } from './job-store.js';

/** Reads a job's upload and writes its result: the CPU-bound part, off the API's event loop. */
export interface JobProcessor {
  /** Data records in the uploaded file (what submitting charges for); throws UnprocessableFile. */
  count(job: JobRow): Promise<number>;
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
  /** How often an idle worker looks for jobs another process queued. */
  pollMs?: number;
  /** How often a working worker records progress and proves itself alive. */
  beatMs?: number;
  /** A job whose worker has not beaten for this long is taken over (its process died). */
  staleSeconds?: number;
}

/**
 * Takes jobs from the queue one at a time and runs them to the end: completed with its counts and
 * the credits it did not need given back, or failed with every credit given back. Any number of
 * workers, in any number of processes, share the queue.
 */
export class BulkWorker {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  #stopped = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;
  readonly #abort = new AbortController();

  constructor(private readonly options: BulkWorkerOptions) {}

  start(): void {
    this.#loop ??= this.#run();
  }

  /** A job was queued in this process: look now rather than at the next poll. */
  notify(): void {
    this.#wake?.();
  }

  /** Stops taking jobs; a job under way is abandoned to be taken over and run again from the start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    this.notify();
    await this.#loop;
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
        await this.#runJob(job);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  async #runJob(job: JobRow): Promise<void> {
    const { db, processor, logger, beatMs = 2000 } = this.options;
    const log = logger ? logger.child({ job_id: job.id, attempt: job.attempts }) : null;
    log?.info({ file: job.file_name }, 'bulk job started');
    let processed = 0;
    let lost = false;
    const lease = new AbortController();
    const abortBoth = () => lease.abort();
    this.#abort.signal.addEventListener('abort', abortBoth);
    const heartbeat = setInterval(() => {
      beat(db, job.id, this.id, processed)
        .then((held) => {
          if (!held) {
            lost = true;
            lease.abort();
          }
        })
        .catch((error) => log?.warn({ err: error }, 'bulk job heartbeat failed'));
    }, beatMs);
    try {
      const outcome = await processor.process(job, (rows) => (processed = rows), lease.signal);
      const done = await completeJob(db, job.id, this.id, outcome);
      if (done) {
        log?.info({ rows: outcome.totalRows, reversed: done.credits_reversed }, 'bulk job completed');
        await this.#tellOwner(done);
      }
    } catch (error) {
      if (this.#stopped || lost) {
        log?.info('bulk job left to be taken over');
        return;
      }
      const message =
        error instanceof UnprocessableFile
          ? error.message
          : 'The file could not be processed because of a server error. Your credits were given back.';
      if (!(error instanceof UnprocessableFile)) log?.error({ err: error }, 'bulk job failed');
      await failJob(db, job.id, this.id, message).catch((failure) =>
        log?.error({ err: failure }, 'could not mark the job failed'),
      );
    } finally {
      clearInterval(heartbeat);
      this.#abort.signal.removeEventListener('abort', abortBoth);
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
    const page = `${publicUrl()}/files/${job.file_reference}`;
    await mailer.send({
      kind: 'file_ready',
      to: owner.email,
      subject: `Your file ${job.file_name} is ready`,
      text: [
        `Your file ${job.file_name} has been scrubbed: ${(job.total_rows ?? 0).toLocaleString('en-US')} records.`,
        `Download the results: ${page}/result`,
        `File details: ${page}`,
      ].join('\n\n'),
    });
  }
}
