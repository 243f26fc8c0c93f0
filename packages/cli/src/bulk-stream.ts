import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STREAM_CREDITS_RAN_OUT } from '@scrub/contract';
import type { BulkJob, BulkStreamParams, Scrub } from '@scrub/sdk';
import type { Context } from './context.js';
import { saveDownload } from './download.js';
import { CliError, OutOfCreditsError } from './errors.js';
import { count } from './format.js';
import type { LocalCsv } from './local-csv.js';
import { bar, formatBytes, progressLine } from './progress-line.js';

/** What is kept of stdin until the service answers, in case it has no streaming route. */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

/**
 * stdin, read once: what was sent before the service answered is kept, so that a service without
 * `POST /bulk/jobs/stream` (an older one answers 404 at once) can still be sent the whole file as
 * a queued job.
 */
export class ReplayableStdin {
  readonly #source: AsyncIterator<string | Buffer>;
  #kept: Buffer[] | null = [];
  #keptBytes = 0;
  /** The read the upload has asked for and not yet had: it is kept before anyone gets it. */
  #inFlight: Promise<Buffer | null> | null = null;
  #replaying = false;

  constructor(stdin: AsyncIterable<string | Buffer>) {
    this.#source = stdin[Symbol.asyncIterator]();
  }

  /** The next piece of stdin (null at its end), kept while it may have to be sent again. */
  async #read(): Promise<Buffer | null> {
    const next = await this.#source.next();
    if (next.done) return null;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    if (this.#kept !== null) {
      this.#kept.push(chunk);
      this.#keptBytes += chunk.length;
      if (this.#keptBytes > MAX_KEPT_BYTES) this.#kept = null;
    }
    return chunk;
  }

  async *chunks(): AsyncGenerator<Buffer> {
    while (!this.#replaying) {
      this.#inFlight = this.#read();
      const chunk = await this.#inFlight;
      this.#inFlight = null;
      // Once the file is being sent again, what this read brought is in it already.
      if (chunk === null || this.#replaying) return;
      yield chunk;
    }
  }

  /** The service streams: nothing needs keeping. */
  forget(): void {
    this.#kept = null;
  }

  /** The whole of stdin in a temporary file: what was sent, then the rest. */
  async toFile(): Promise<LocalCsv> {
    this.#replaying = true;
    // A read the upload started before the service answered: its piece joins what was kept.
    await this.#inFlight?.catch(() => null);
    const kept = this.#kept;
    if (kept === null) {
      throw new CliError(
        'This service cannot stream a job, and stdin was read too far to send it again: save the CSV to a file and run scrub bulk FILE',
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'scrub-csv-'));
    const remove = () => rm(dir, { recursive: true, force: true });
    const path = join(dir, 'upload.csv');
    const source = this.#source;
    async function* all() {
      yield* kept!;
      for (let next = await source.next(); !next.done; next = await source.next())
        yield Buffer.from(next.value);
    }
    try {
      await pipeline(Readable.from(all()), createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await remove();
      throw error;
    }
    return { path, name: 'stdin.csv', remove };
  }
}

export type StreamedBulk = { job: BulkJob } | { fallback: LocalCsv | null };

/**
 * `scrub bulk FILE|- --wait` by the streaming route: the file goes up as it is read and the result
 * rows come down while it does, to stdout or `output` (time to the first row: the file's first
 * lines). Answers the finished job; or, from a service without the route, `fallback`: the file to
 * send as a queued job instead (stdin read so far and the rest; null for a file on disk, which
 * can be read again).
 */
export async function streamBulk(
  context: Context,
  scrub: Scrub,
  file: string,
  params: BulkStreamParams,
  output: string | undefined,
): Promise<StreamedBulk> {
  const { NotFoundError, PayloadTooLargeError, BulkJobFailedError, InsufficientCreditsError } = await import(
    '@scrub/sdk'
  );
  const stdin = file === '-' ? new ReplayableStdin(context.io.stdin) : null;
  const line = progressLine(context.io);
  let streamed: Awaited<ReturnType<Scrub['bulk']['stream']>>;
  try {
    streamed = await scrub.bulk.stream(stdin ? stdin.chunks() : file, params, {
      onUploadProgress: (sent, total) =>
        line.update(
          total === undefined
            ? `Scrubbing  ${formatBytes(sent)} sent`
            : `Scrubbing  ${bar(sent, total)}  ${formatBytes(sent)} of ${formatBytes(total)} sent`,
          sent === total,
        ),
    });
  } catch (error) {
    line.clear();
    if (error instanceof InsufficientCreditsError && error.creditsRequired !== undefined) {
      // Refused at the first rows: what the whole file needs is not known yet.
      throw new OutOfCreditsError(
        `You need at least ${count(error.creditsRequired)} credits but only have ${count(error.creditsAvailable ?? 0)}.`,
      );
    }
    // A service without the route answers 404, or 413 when the body is over its JSON limit (1 MiB):
    // the queued job then answers for the file (its own size limit included).
    if (!(error instanceof NotFoundError) && !(error instanceof PayloadTooLargeError)) throw error;
    return { fallback: stdin ? await stdin.toFile() : null };
  }
  stdin?.forget();
  // The job is printed after the result when it goes to a file: its format is read meanwhile.
  if (output !== undefined) context.readProfileAhead();
  try {
    await saveDownload(context.io, streamed.result, output);
  } catch (error) {
    const job = error instanceof BulkJobFailedError ? error.job : null;
    // Stopped part-way (the credits ran out, the plan was paused): the rows scrubbed before are
    // charged and kept with the job. Out of credits exits as a refused charge does.
    if (job?.result_url) {
      const message = `Bulk job ${job.job_id} stopped: ${job.error} Download that part: scrub export ${job.file_reference} -o FILE`;
      if (job.error?.startsWith(STREAM_CREDITS_RAN_OUT) === true) throw new OutOfCreditsError(message);
      throw new CliError(message, 1, 'job_failed');
    }
    throw error;
  } finally {
    line.clear();
  }
  return { job: await streamed.endedJob() };
}
