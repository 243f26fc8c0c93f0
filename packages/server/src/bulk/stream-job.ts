import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { JOB_ID_HEADER, type OutputColumn, streamStoppedPartWay } from '@scrub/contract';
import { CsvError, countCsvRows, openCsv } from '@scrub/engine';
import type { Kysely } from 'kysely';
import { insufficientCredits } from '../account/ledger.js';
import { planPausedError } from '../account/plan-status.js';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ApiError } from '../errors/api-error.js';
import { rowsScrubbed } from '../metrics/service-metrics.js';
import type { Database } from '../storage/schema.js';
import { endWhenSettled, inSpan, startSpan } from '../tracing/spans.js';
import { UnprocessableFile } from './bulk-worker.js';
import {
  beat,
  failJob,
  type JobOutcome,
  type JobRow,
  newResultKey,
  reserveStreamCredits,
  type ScrubbedRows,
  STREAM_LOST_ERROR,
  STREAM_WORKER_PREFIX,
  settleStreamJob,
  startStreamJob,
} from './job-store.js';
import type { BulkServices } from './setup.js';

// Over 500 lines, kept whole: the StreamJob class is one request's three loops (count, charge,
// scrub) over state they share and wake each other on; split across modules, that state would
// have to be handed around or made public.

/**
 * Credits reserved at a time: the rows counted and not yet paid for, and as many again as were
 * paid for before, up to this (a stream reserves little more than it has brought, so that two at
 * once share a balance as two queued jobs would).
 */
const MAX_BLOCK = 250_000;
/** Bytes the row count may run ahead of the scrub before reading more of the request waits. */
const MAX_AHEAD_BYTES = 16 * 1024 * 1024;
/** Rows are counted this many bytes at a time at most: where they end, a charge or a cut may fall. */
const COUNT_STEP_BYTES = 16 * 1024;
/** The largest piece handed to the scrub at once, and the first (each next one twice the last). */
const MAX_PIECE_BYTES = 1024 * 1024;
const FIRST_PIECE_BYTES = 64 * 1024;
const BEAT_MS = 10_000;
/** How long a stream may sit with nothing sent or read before its client is taken to be gone. */
const STREAM_IDLE_MS = 10 * 60_000;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface StreamJobOptions {
  profileId: string;
  fileName: string;
  phoneCol: string | number;
  headerRow: boolean;
  columns: readonly OutputColumn[];
  /** Operator lists to flag rows with. */
  lists: readonly string[];
  /** The consent-date column (the Reassigned result column), and the credits a record then costs. */
  consentCol?: string | number | undefined;
  recordPrice: number;
}

export interface StreamJobDeps {
  db: Kysely<Database>;
  blobStore: BlobStore;
  bulk: BulkServices;
  maxUploadBytes: number;
}

/** Takes the answer over from the framework; answers the headers it had set (request id, limits...). */
type Hijack = () => Record<string, string | number | string[] | undefined>;

/** The client went away before the answer ended. */
class ClientGone extends Error {
  override name = 'ClientGone';
}

/** The balance could not pay for the next rows (or the plan was paused): the scrub ends at the last row paid for. */
class CreditsRanOut extends Error {
  override name = 'CreditsRanOut';
  constructor(
    readonly need: number,
    readonly available: number,
    readonly paused: boolean,
  ) {
    super('credits ran out');
  }
}

/** Why a stream that had sent rows stopped before the end of its file. */
type Cut = 'credits' | 'paused' | 'connection' | 'unreadable';

/** Why the service stopped a stream (`#stoppedBy`): the credits, the plan, or the file. */
function cutOf(stoppedBy: unknown): Cut {
  if (stoppedBy instanceof CreditsRanOut) return stoppedBy.paused ? 'paused' : 'credits';
  return 'unreadable';
}

/**
 * `POST /bulk/jobs/stream`: scrubs the CSV in the request body while it arrives and writes the
 * result into the response as rows come out. Rows are counted as they arrive (the engine's record
 * count, ahead of the scrub) and paid for in blocks before the scrub sees them; the job is recorded
 * like a queued one (its upload and result stored, listed in /files) and ends charged exactly as
 * a queued job of the same file would be. Before the first result byte, a refusal is an ordinary
 * JSON error; after it, a failure ends the response without its last chunk (the client sees a
 * broken transfer) and the job record says why. See docs/api.md ("Streaming a job").
 */
export async function runStreamJob(
  deps: StreamJobDeps,
  options: StreamJobOptions,
  request: IncomingMessage,
  response: ServerResponse,
  hijack: Hijack,
): Promise<void> {
  const workerId = `${STREAM_WORKER_PREFIX}${randomUUID()}`;
  const job = await startStreamJob(
    deps.db,
    {
      profileId: options.profileId,
      fileName: options.fileName,
      fileMethod: 'api',
      phoneCol: options.phoneCol,
      headerRow: options.headerRow,
      mapping: {},
      columns: options.columns,
      lists: options.lists,
      consentCol: options.consentCol,
      recordPrice: options.recordPrice,
    },
    workerId,
  );
  // With tracing on, the job is a span under the request's: its phases (csv-processor.ts's names)
  // are its children.
  const attributes = { 'scrub.job.id': job.id, 'scrub.job.streamed': true, 'scrub.worker.id': workerId };
  await inSpan('bulk job', { attributes }, () =>
    new StreamJob(deps, job, workerId, request, response, hijack).run(),
  );
}

/**
 * One streamed job's request: three loops that share the state below and wake each other when it
 * changes. The count reads the request (storing and hashing it) and notes where rows end; the
 * charge pays for counted rows a block ahead; the scrub takes what is paid for and writes its
 * result to the response and to the store.
 */
class StreamJob {
  readonly #abort = new AbortController();
  #waiters: (() => void)[] = [];

  // The request, stored as sent (the job's upload) and hashed on the way.
  readonly #upload;
  readonly #uploadStored;
  readonly #uploadHash = createHash('sha256');
  #receivedBytes = 0;

  // The file as UTF-8 without its byte-order mark: the row count's byte offsets are offsets in it.
  #opened: Awaited<ReturnType<typeof openCsv>> | undefined;
  /** Counted bytes the scrub has not had yet. */
  readonly #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Bytes handed to the scrub. */
  #releasedBytes = 0;
  /** Bytes the scrub may have: whole rows paid for. Infinity once the file is counted and paid. */
  #allowedBytes = 0;
  /** Set when the stream stops part-way: the scrub ends at this byte, the end of a whole row. */
  #stopAt: number | null = null;
  /** What stopped the stream before the end of its file, on the service's side. */
  #stoppedBy: unknown = null;
  #cut: Cut | null = null;
  #counted = false;
  /** Rows counted and where they end, not yet looked at by the charge. */
  readonly #unpaid: { rows: number; bytes: number }[] = [];
  /** Where counted rows end, from the first not yet handed to the scrub (where a cut may fall). */
  readonly #rowEnds: number[] = [];
  #paidRows = 0;
  #pieces = 0;

  // The result: to the response as it comes (headers sent with its first bytes) and to the store.
  readonly #resultKey = newResultKey();
  readonly #result;
  readonly #resultStored;
  readonly #resultHash = createHash('sha256');
  #started = false;
  /** The client went away: the scrub's rows go to the stored result only. */
  #clientLeft = false;
  /** The request's body has been read to its end. */
  #bodyRead = false;

  constructor(
    private readonly deps: StreamJobDeps,
    private readonly job: JobRow,
    private readonly workerId: string,
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    private readonly hijack: Hijack,
  ) {
    this.#upload = deps.blobStore.createWriteStream(job.upload_key, 'text/csv');
    this.#uploadStored = finished(this.#upload);
    this.#uploadStored.catch((error: unknown) => this.#fail(error));
    this.#result = deps.blobStore.createWriteStream(this.#resultKey, 'text/csv');
    this.#resultStored = finished(this.#result);
    this.#resultStored.catch((error: unknown) => this.#fail(error));
    // The phases, as a queued job's: the download is the request's body arriving (until stored).
    const downloading = startSpan('bulk download', { attributes: { 'scrub.blob.key': job.upload_key } });
    if (downloading) endWhenSettled(downloading, this.#uploadStored);
    const uploading = startSpan('bulk upload', { attributes: { 'scrub.blob.key': this.#resultKey } });
    if (uploading) endWhenSettled(uploading, this.#resultStored);
    response.on('close', () => {
      if (!response.writableEnded) this.#clientGone();
    });
    // A client that neither sends nor reads for this long is gone (a silently dropped network
    // would otherwise hold the job, and its credits, with the heartbeat beating).
    request.socket.setTimeout(STREAM_IDLE_MS, () => request.socket.destroy());
  }

  async run(): Promise<void> {
    const heartbeat = setInterval(() => {
      beat(this.deps.db, this.job.id, this.workerId, this.#paidRows)
        .then((held) => {
          if (!held) this.#fail(new Error('the streamed job was taken from its request'));
        })
        .catch(() => {});
    }, BEAT_MS);
    // A job that has failed stops proving itself alive: should its end never come, the sweep ends it.
    this.#abort.signal.addEventListener('abort', () => clearInterval(heartbeat));
    let outcome: ScrubbedRows | undefined;
    let failure: unknown;
    try {
      outcome = await this.#scrubAll();
    } catch (error) {
      // A client gone before any row went out broke whatever was waiting on its request.
      const reason: unknown = this.#abort.signal.reason;
      failure = reason instanceof ClientGone ? reason : error;
    } finally {
      clearInterval(heartbeat);
      this.#wake();
    }
    try {
      await this.#end(outcome, failure);
    } finally {
      this.request.socket?.setTimeout(0);
    }
  }

  /** Runs the count, the charge and the scrub together; answers the scrub's rows. */
  async #scrubAll(): Promise<ScrubbedRows> {
    this.#opened = await openCsv(this.#requestBytes());
    const counting = this.#count();
    const charging = this.#charge();
    const scrubbing = this.#scrub();
    // The charge or the scrub failing stops the others. The count failing (a file that cannot be
    // read further, or over the size limit) stops like the credits running out: the scrub ends at
    // the last row paid for. After such a stop, nothing waits for the count (the rest of the
    // request is of no interest, and its client may be slow to send it).
    counting.catch((error: unknown) => this.#stopAtLastPaidRow(error));
    charging.catch((error: unknown) => !(error instanceof CreditsRanOut) && this.#fail(error));
    scrubbing.catch((error: unknown) => this.#fail(error));
    const [chargeResult, scrubResult] = await Promise.allSettled([charging, scrubbing]);
    const stoppedBy = this.#stoppedBy;
    if (scrubResult.status === 'rejected') {
      // Nothing paid for: the scrub had nothing to read (a header alone is no file to it).
      throw stoppedBy !== null && this.#paidRows === 0 ? stoppedBy : scrubResult.reason;
    }
    if (chargeResult.status === 'rejected' && !(chargeResult.reason instanceof CreditsRanOut)) {
      throw chargeResult.reason;
    }
    if (stoppedBy !== null && this.#cut === null) {
      // Before any row went out: refused as a whole. After: a cut like the client's.
      if (!this.#started) throw stoppedBy;
      this.#cut = cutOf(stoppedBy);
    }
    if (this.#cut === null) {
      await counting;
      await this.#uploadStored;
    }
    return scrubResult.value;
  }

  /** The record count ahead of the scrub: where rows end, for the charge and for a cut. */
  #count(): Promise<void> {
    return countCsvRows(this.#countInput(), {
      phoneColumn: this.job.phone_col,
      header: this.job.header_row,
      onProgress: ({ rows, bytes }) => {
        this.#unpaid.push({ rows, bytes });
        this.#rowEnds.push(bytes);
        this.#wake();
      },
    }).then(() => {
      this.#counted = true;
      this.#wake();
    });
  }

  /** The scrub of what is paid for, to the response and the store; done once the result is stored. */
  async #scrub(): Promise<ScrubbedRows> {
    const output = this.#output();
    const rows = await inSpan('bulk scrub', { attributes: { 'scrub.job.threads': 1 } }, () =>
      this.deps.bulk.processor.scrubStream(this.job, this.#scrubInput(), output, this.#abort.signal),
    );
    await finished(output);
    return rows;
  }

  /**
   * The credits ran out, or the file cannot be read further (`reason`): the scrub ends after the
   * last whole row paid for (`paid`, or the last before).
   */
  #stopAtLastPaidRow(reason: unknown, paid?: { rows: number; bytes: number }): void {
    if (this.#stopAt !== null || this.#abort.signal.aborted) return;
    this.#stoppedBy = reason;
    if (paid) {
      this.#allowedBytes = paid.bytes;
      this.#paidRows = paid.rows;
    }
    this.#stopAt = this.#allowedBytes;
    this.#wake();
  }

  /** Stops everything: the job fails with every credit given back. */
  #fail(reason: unknown): void {
    if (!this.#abort.signal.aborted) {
      this.#abort.abort(reason instanceof Error ? reason : new Error(String(reason)));
    }
    this.#wake();
  }

  /**
   * The client went away. Before any row went out, the job fails. After, the scrub finishes the
   * rows it was given, up to the end of the row it is in, and the job keeps and charges those
   * (all of them when the file had all arrived: the job completes).
   */
  #clientGone(): void {
    this.#clientLeft = true;
    // Stopped already (the credits, the file): the stop stands, and says why.
    if (this.#abort.signal.aborted || this.#stopAt !== null) return;
    // The whole file has been read: the job completes without its client, its result downloadable.
    if (this.#bodyRead) return;
    const cutAt = this.#rowEnds.find((bytes) => bytes >= this.#releasedBytes);
    if (!this.#started || cutAt === undefined) {
      this.#fail(new ClientGone('the client went away'));
      return;
    }
    this.#stopAt = cutAt;
    this.#cut = 'connection';
    this.#wake();
  }

  /** Wakes the loops waiting for a change of the shared state. */
  #wake(): void {
    const woken = this.#waiters;
    this.#waiters = [];
    for (const resolve of woken) resolve();
  }

  #changed(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiters.push(resolve);
    });
  }

  async *#requestBytes(): AsyncGenerator<Buffer> {
    const { maxUploadBytes } = this.deps;
    for await (const chunk of this.#fromClient()) {
      this.#abort.signal.throwIfAborted();
      this.#receivedBytes += chunk.length;
      if (this.#receivedBytes > maxUploadBytes) {
        throw new ApiError(
          'payload_too_large',
          `The file is larger than the largest accepted, ${maxUploadBytes.toLocaleString('en-US')} bytes.`,
        );
      }
      this.#uploadHash.update(chunk);
      // Rejects when the store fails, or the job does.
      if (!this.#upload.write(chunk)) await once(this.#upload, 'drain', { signal: this.#abort.signal });
      yield chunk;
    }
    this.#bodyRead = true;
    this.#upload.end();
  }

  /** The request's body as it comes: its breaking off (not what the service throws) is the client going. */
  async *#fromClient(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of this.request as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      this.#clientGone();
      throw error;
    }
  }

  async *#countInput(): AsyncGenerator<Buffer> {
    for await (const chunk of this.#opened!.chunks) {
      // However large the chunks that arrive: a balance short of a whole chunk still pays for its first rows.
      for (let at = 0; at < chunk.length; at += COUNT_STEP_BYTES) {
        const step = chunk.subarray(at, at + COUNT_STEP_BYTES);
        while (this.#pendingBytes > MAX_AHEAD_BYTES && this.#running()) await this.#changed();
        if (!this.#running()) return;
        this.#pending.push(step);
        this.#pendingBytes += step.length;
        this.#wake();
        yield step;
      }
    }
  }

  /** Neither cut nor failed. */
  #running(): boolean {
    return this.#stopAt === null && !this.#abort.signal.aborted;
  }

  async *#scrubInput(): AsyncGenerator<Buffer> {
    if (this.#opened!.bom) yield Buffer.from(UTF8_BOM);
    for (;;) {
      this.#abort.signal.throwIfAborted();
      const limit = this.#stopAt ?? this.#allowedBytes;
      if (this.#releasedBytes < limit && this.#pending.length > 0) {
        yield this.#nextPiece(limit);
        continue;
      }
      if (this.#stopAt !== null && this.#releasedBytes >= this.#stopAt) return;
      if (this.#counted && this.#allowedBytes === Number.POSITIVE_INFINITY && this.#pending.length === 0) {
        return;
      }
      await this.#changed();
    }
  }

  /**
   * What has arrived and is paid for (up to `limit`), in one piece of up to 1 MiB: the request's
   * chunks are small (64 kB or less), and the scrub thread spends less per chunk on fewer, larger
   * ones. A buffer of its own, so that the thread may take it over rather than copy it. The first
   * pieces small, for the first rows to come out soon.
   */
  #nextPiece(limit: number): Buffer {
    const cap = Math.min(MAX_PIECE_BYTES, FIRST_PIECE_BYTES * 2 ** this.#pieces++);
    const size = Math.min(limit - this.#releasedBytes, this.#pendingBytes, cap);
    const piece = Buffer.allocUnsafeSlow(size);
    for (let filled = 0; filled < size; ) {
      const chunk = this.#pending[0]!;
      const take = Math.min(chunk.length, size - filled);
      chunk.copy(piece, filled, 0, take);
      if (take === chunk.length) this.#pending.shift();
      else this.#pending[0] = chunk.subarray(take);
      filled += take;
    }
    this.#pendingBytes -= size;
    this.#releasedBytes += size;
    // Rows the scrub has been given in full can no longer be where a cut falls.
    while (this.#rowEnds.length > 1 && this.#rowEnds[0]! < this.#releasedBytes) this.#rowEnds.shift();
    this.#wake();
    return piece;
  }

  /** Pays for counted rows before the scrub may have them (`record_price` credits each), a block ahead. */
  async #charge(): Promise<void> {
    const price = this.job.record_price;
    let charged = 0;
    let unlimited = false;
    for (;;) {
      this.#abort.signal.throwIfAborted();
      if (this.#stopAt !== null) return;
      if (this.#unpaid.length === 0) {
        if (this.#counted) {
          this.#allowedBytes = Number.POSITIVE_INFINITY;
          this.#wake();
          return;
        }
        await this.#changed();
        continue;
      }
      const batch = this.#unpaid.splice(0);
      const latest = batch[batch.length - 1]!;
      if (!unlimited && latest.rows * price > charged) {
        const need = latest.rows * price - charged;
        const want = Math.min(MAX_BLOCK * price, charged);
        const { db } = this.deps;
        const reserved = await reserveStreamCredits(
          db,
          this.job.id,
          this.workerId,
          need,
          want,
          this.#paidRows,
        );
        // Stopped meanwhile: what was reserved beyond the rows scrubbed is given back at the end.
        if (this.#stopAt !== null) return;
        if (!reserved.ok) {
          if (reserved.reason === 'lost') throw new Error('the streamed job was taken from its request');
          const ranOut = new CreditsRanOut(need, reserved.available, reserved.reason === 'paused');
          let paid = batch.filter((boundary) => boundary.rows * price <= charged).pop();
          // The balance may still pay for the rows up to a later row end of the batch: they go out.
          const covered = batch
            .filter(({ rows }) => rows * price > charged && rows * price - charged <= reserved.available)
            .pop();
          if (covered && reserved.reason === 'credits') {
            const part = await reserveStreamCredits(
              db,
              this.job.id,
              this.workerId,
              covered.rows * price - charged,
              0,
              this.#paidRows,
            );
            if (this.#stopAt !== null) return;
            if (part.ok) paid = covered;
          }
          this.#stopAtLastPaidRow(ranOut, paid);
          throw ranOut;
        }
        // An unlimited account is charged nothing: a reservation of 0 covers every row.
        if (reserved.credits === charged) unlimited = true;
        charged = reserved.credits;
      }
      this.#allowedBytes = latest.bytes;
      this.#paidRows = latest.rows;
      this.#wake();
    }
  }

  /** Where the scrub writes: the response (while its client is there) and the stored result. */
  #output(): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        if (!this.#started) this.#sendHeaders();
        this.#resultHash.update(chunk);
        Promise.all([write(this.#result, chunk), this.#send(chunk)]).then(() => done(), done);
      },
      final: (done) => {
        this.#result.end();
        this.#resultStored.then(() => done(), done);
      },
    });
  }

  #sendHeaders(): void {
    this.#started = true;
    const framework = Object.entries(this.hijack()).filter(([, value]) => value !== undefined);
    this.response.writeHead(200, {
      ...(Object.fromEntries(framework) as Record<string, string | number | string[]>),
      'content-type': 'text/csv; charset=utf-8',
      'cache-control': 'no-store',
      [JOB_ID_HEADER]: this.job.id,
    });
  }

  /** Writes to the client; done at once when it has gone (the stored result still takes the rows). */
  #send(chunk: Buffer): Promise<void> {
    const { response } = this;
    if (this.#clientLeft || response.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      response.once('close', resolve);
      response.write(chunk, () => {
        response.off('close', resolve);
        resolve();
      });
    });
  }

  /**
   * Settles the job. Whole: charged as a queued job. Cut part-way after rows went out: the rows the
   * scrub finished are charged and their result kept with the failed job; the rest of the file
   * was not scrubbed or charged. Anything else: failed, every credit given back, nothing kept.
   */
  async #end(outcome: ScrubbedRows | undefined, failure: unknown): Promise<void> {
    if (failure !== undefined || !outcome) return this.#discard(failure);
    const { db, bulk } = this.deps;
    const why = this.#cut;
    const stopped =
      why === null
        ? undefined
        : streamStoppedPartWay(why, outcome.totalRows, why === 'unreadable' ? reasonOf(this.#stoppedBy) : '');
    let settled: JobRow | undefined;
    try {
      settled = await settleStreamJob(
        db,
        this.job.id,
        this.workerId,
        this.#outcomeOf(outcome),
        bulk.onJobEnd,
        stopped,
      );
    } catch (error) {
      return this.#discard(error);
    }
    // Taken from this request (the sweep failed it, every credit given back): nothing is kept.
    if (!settled) return this.#discard(new Error('the streamed job was taken from its request'));
    rowsScrubbed.inc(outcome.totalRows);
    await bulk.signals.ended(this.job.id);
    if (stopped === undefined) {
      this.response.end();
      return;
    }
    // The answer is cut off (a broken transfer, not a short file that looks whole), and the part
    // of the file that arrived is not kept: it is not the customer's file.
    this.response.destroy();
    await this.#dropUpload();
  }

  /** Stops reading the request and deletes what was stored of it. */
  async #dropUpload(): Promise<void> {
    this.request.pause();
    this.#upload.destroy();
    await this.#uploadStored.catch(() => {});
    await this.deps.blobStore.delete(this.job.upload_key);
  }

  #outcomeOf(rows: ScrubbedRows): JobOutcome {
    return {
      ...rows,
      resultKey: this.#resultKey,
      uploadSha256: this.#uploadHash.copy().digest('hex'),
      resultSha256: this.#resultHash.copy().digest('hex'),
    };
  }

  /** Fails the job, every credit given back, its files deleted; refuses the request when no row went out. */
  async #discard(failure: unknown): Promise<void> {
    const { db, bulk, blobStore } = this.deps;
    this.#result.destroy();
    try {
      await Promise.allSettled([this.#dropUpload(), blobStore.delete(this.#resultKey)]);
      await failJob(db, this.job.id, this.workerId, failureMessage(failure), bulk.onJobEnd);
      await bulk.signals.ended(this.job.id);
    } finally {
      // Headers and rows have gone: the response is cut off without its last chunk, so any HTTP
      // client sees a broken transfer rather than a short file that looks whole.
      if (this.#started) this.response.destroy();
    }
    if (this.#started) return;
    if (failure instanceof CreditsRanOut) {
      throw failure.paused ? planPausedError() : insufficientCredits(failure.need, failure.available);
    }
    throw refusalOf(failure);
  }
}

const write = (target: Writable, chunk: Buffer) =>
  new Promise<void>((resolve, reject) => {
    target.write(chunk, (error) => (error ? reject(error) : resolve()));
  });

/** What the job record says about a failure that kept nothing. */
function failureMessage(failure: unknown): string {
  if (failure instanceof ClientGone) return STREAM_LOST_ERROR;
  if (failure instanceof CreditsRanOut) {
    if (failure.paused) return 'Your plan was paused while the file streamed: nothing was charged.';
    return `Not enough credits for the first records: they need ${failure.need.toLocaleString('en-US')} (the account has ${failure.available.toLocaleString('en-US')}): nothing was scrubbed or charged.`;
  }
  if (failure instanceof UnprocessableFile) return `${failure.message} Your credits were given back.`;
  if (failure instanceof CsvError)
    return `${(refusalOf(failure) as ApiError).message} Your credits were given back.`;
  if (failure instanceof ApiError) return `${failure.message} Your credits were given back.`;
  return 'The file could not be processed because of a server error. Your credits were given back.';
}

/** What was wrong with a file the count could not read further, in the customer's words. */
function reasonOf(failure: unknown): string {
  const refusal = refusalOf(failure);
  return refusal instanceof Error ? refusal.message : String(refusal);
}

/** A failure before the first result byte, answered as the queued job's submit would answer it. */
function refusalOf(failure: unknown): unknown {
  if (failure instanceof CsvError) {
    const message = failure.line === null ? failure.message : `${failure.message} (line ${failure.line})`;
    return new ApiError(failure.code === 'csv_empty' ? 'csv_empty' : 'bad_request', message);
  }
  if (failure instanceof UnprocessableFile) {
    return new ApiError(failure.reason === 'empty' ? 'csv_empty' : 'bad_request', failure.message);
  }
  return failure;
}

export type { JobRow };
