import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { JOB_ID_HEADER, type OutputColumn, STREAM_CREDITS_RAN_OUT } from '@scrub/contract';
import { CsvError, countCsvRows, openCsv } from '@scrub/engine';
import type { Kysely } from 'kysely';
import { insufficientCredits } from '../account/ledger.js';
import { planPausedError } from '../account/plan-status.js';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ApiError } from '../http/api-error.js';
import type { Database } from '../storage/schema.js';
import { UnprocessableFile } from './bulk-worker.js';
import {
  beat,
  failJob,
  type JobOutcome,
  type JobRow,
  newResultKey,
  type OnJobEnd,
  reserveStreamCredits,
  STREAM_LOST_ERROR,
  STREAM_WORKER_PREFIX,
  settleStreamJob,
  startStreamJob,
} from './job-store.js';
import type { BulkServices } from './setup.js';

/** Credits reserved at a time: at least this many rows, at most `MAX_BLOCK`, doubling as the file goes. */
const MIN_BLOCK = 10_000;
const MAX_BLOCK = 250_000;
/** Bytes the row count may run ahead of the scrub before reading more of the request waits. */
const MAX_AHEAD_BYTES = 16 * 1024 * 1024;
/** The largest piece handed to the scrub at once, and the first (each next one twice the last). */
const MAX_PIECE_BYTES = 1024 * 1024;
const FIRST_PIECE_BYTES = 64 * 1024;
const BEAT_MS = 10_000;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export interface StreamJobOptions {
  profileId: string;
  fileName: string;
  phoneCol: string | number;
  headerRow: boolean;
  columns: readonly OutputColumn[];
}

export interface StreamJobDeps {
  db: Kysely<Database>;
  blobStore: BlobStore;
  bulk: BulkServices;
  maxUploadBytes: number;
}

/** The client went away before the answer ended. */
class ClientGone extends Error {
  override name = 'ClientGone';
}

/** The balance could not pay for the next rows: `rows` were scrubbed and paid for. */
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
  /** Takes the answer over from the framework; answers the headers it had set (request id, limits...). */
  hijack: () => Record<string, string | number | string[] | undefined>,
): Promise<void> {
  const { db, blobStore, bulk, maxUploadBytes } = deps;
  const onJobEnd: OnJobEnd | undefined = bulk.onJobEnd;
  const workerId = `${STREAM_WORKER_PREFIX}${randomUUID()}`;
  const job = await startStreamJob(
    db,
    {
      profileId: options.profileId,
      fileName: options.fileName,
      fileMethod: 'api',
      phoneCol: options.phoneCol,
      headerRow: options.headerRow,
      mapping: {},
      columns: options.columns,
    },
    workerId,
  );

  const abort = new AbortController();
  const stop = (reason: Error) => {
    if (!abort.signal.aborted) abort.abort(reason);
    wake();
  };
  response.on('close', () => {
    if (!response.writableEnded) stop(new ClientGone('the client went away'));
  });

  // Waiters for any change of the shared state below.
  let waiters: (() => void)[] = [];
  function wake() {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  }
  const changed = () =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
    });

  // The request, stored as sent (the job's upload) and hashed on the way.
  const upload = blobStore.createWriteStream(job.upload_key, 'text/csv');
  const uploadStored = finished(upload);
  uploadStored.catch((error: unknown) => stop(error instanceof Error ? error : new Error(String(error))));
  const uploadHash = createHash('sha256');
  let receivedBytes = 0;
  async function* requestBytes(): AsyncGenerator<Buffer> {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      abort.signal.throwIfAborted();
      receivedBytes += chunk.length;
      if (receivedBytes > maxUploadBytes) {
        throw new ApiError(
          'payload_too_large',
          `The file is larger than the largest accepted, ${maxUploadBytes.toLocaleString('en-US')} bytes.`,
        );
      }
      uploadHash.update(chunk);
      if (!upload.write(chunk)) await new Promise((resolve) => upload.once('drain', resolve));
      yield chunk;
    }
    upload.end();
  }

  // The file as UTF-8 without its byte-order mark: the row count's byte offsets are offsets in it.
  let opened: Awaited<ReturnType<typeof openCsv>> | undefined;
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let releasedBytes = 0;
  /** Bytes the scrub may have: whole rows paid for. Infinity once the file is counted and paid. */
  let allowedBytes = 0;
  /** Set when the credits ran out: the scrub ends at this byte, the end of the last row paid for. */
  let stopAt: number | null = null;
  let counted = false;
  const boundaries: { rows: number; bytes: number }[] = [];
  let paidRows = 0;

  async function* countInput(): AsyncGenerator<Buffer> {
    for await (const chunk of opened!.chunks) {
      while (pendingBytes > MAX_AHEAD_BYTES && stopAt === null && !abort.signal.aborted) await changed();
      if (stopAt !== null || abort.signal.aborted) return;
      pending.push(chunk);
      pendingBytes += chunk.length;
      wake();
      yield chunk;
    }
  }

  let pieces = 0;
  async function* scrubInput(): AsyncGenerator<Buffer> {
    if (opened!.bom) yield Buffer.from(UTF8_BOM);
    for (;;) {
      abort.signal.throwIfAborted();
      const limit = stopAt ?? allowedBytes;
      if (releasedBytes < limit && pending.length > 0) {
        // What has arrived and is paid for, in one piece of up to 1 MiB: the request's chunks are
        // small (64 kB or less), and the scrub thread spends less per chunk on fewer, larger ones.
        // A buffer of its own, so that the thread may take it over rather than copy it.
        // The first pieces small, for the first rows to come out soon.
        const cap = Math.min(MAX_PIECE_BYTES, FIRST_PIECE_BYTES * 2 ** pieces++);
        const size = Math.min(limit - releasedBytes, pendingBytes, cap);
        const piece = Buffer.allocUnsafeSlow(size);
        for (let filled = 0; filled < size; ) {
          const chunk = pending[0]!;
          const take = Math.min(chunk.length, size - filled);
          chunk.copy(piece, filled, 0, take);
          if (take === chunk.length) pending.shift();
          else pending[0] = chunk.subarray(take);
          filled += take;
        }
        pendingBytes -= size;
        releasedBytes += size;
        wake();
        yield piece;
        continue;
      }
      if (stopAt !== null && releasedBytes >= stopAt) return;
      if (counted && allowedBytes === Number.POSITIVE_INFINITY && pending.length === 0) return;
      await changed();
    }
  }

  /** Pays for counted rows before the scrub may have them, a block ahead. */
  async function charge(): Promise<void> {
    let charged = 0;
    let unlimited = false;
    for (;;) {
      abort.signal.throwIfAborted();
      if (boundaries.length === 0) {
        if (counted) {
          allowedBytes = Number.POSITIVE_INFINITY;
          wake();
          return;
        }
        await changed();
        continue;
      }
      const batch = boundaries.splice(0);
      const latest = batch[batch.length - 1]!;
      if (!unlimited && latest.rows > charged) {
        const need = latest.rows - charged;
        const want = Math.min(MAX_BLOCK, Math.max(MIN_BLOCK, charged));
        const reserved = await reserveStreamCredits(db, job.id, workerId, need, want, paidRows);
        if (!reserved.ok) {
          if (reserved.reason === 'lost') throw new Error('the streamed job was taken from its request');
          // The scrub ends after the last whole row paid for.
          const paid = batch.filter((boundary) => boundary.rows <= charged).pop();
          if (paid) {
            allowedBytes = paid.bytes;
            paidRows = paid.rows;
          }
          stopAt = allowedBytes;
          wake();
          throw new CreditsRanOut(need, reserved.available, reserved.reason === 'paused');
        }
        // An unlimited account is charged nothing: a reservation of 0 covers every row.
        if (reserved.credits === charged) unlimited = true;
        charged = reserved.credits;
      }
      allowedBytes = latest.bytes;
      paidRows = latest.rows;
      wake();
    }
  }

  // The result: to the response as it comes (headers sent with its first bytes) and to the store.
  const resultKey = newResultKey();
  const result = blobStore.createWriteStream(resultKey, 'text/csv');
  const resultStored = finished(result);
  resultStored.catch((error: unknown) => stop(error instanceof Error ? error : new Error(String(error))));
  const resultHash = createHash('sha256');
  let started = false;
  let startedResolve: () => void = () => {};
  const firstBytes = new Promise<void>((resolve) => {
    startedResolve = resolve;
  });
  const write = (target: Writable, chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      target.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!started) {
        started = true;
        const framework = Object.entries(hijack()).filter(([, value]) => value !== undefined);
        response.writeHead(200, {
          ...(Object.fromEntries(framework) as Record<string, string | number | string[]>),
          'content-type': 'text/csv; charset=utf-8',
          'cache-control': 'no-store',
          [JOB_ID_HEADER]: job.id,
        });
        startedResolve();
      }
      resultHash.update(chunk);
      Promise.all([write(result, chunk), write(response, chunk)]).then(() => done(), done);
    },
    final(done) {
      result.end();
      resultStored.then(() => done(), done);
    },
  });

  const heartbeat = setInterval(() => {
    beat(db, job.id, workerId, paidRows)
      .then((held) => {
        if (!held) stop(new Error('the streamed job was taken from its request'));
      })
      .catch(() => {});
  }, BEAT_MS);

  let outcome: Omit<JobOutcome, 'resultKey' | 'uploadSha256' | 'resultSha256'> | undefined;
  let failure: unknown;
  try {
    opened = await openCsv(requestBytes());
    const counting = countCsvRows(countInput(), {
      phoneColumn: options.phoneCol,
      header: options.headerRow,
      onProgress: ({ rows, bytes }) => {
        boundaries.push({ rows, bytes });
        wake();
      },
    }).then(() => {
      counted = true;
      wake();
    });
    const charging = charge();
    // Done once the result is stored, not only written.
    const scrubbing = bulk.processor
      .scrubStream(job, scrubInput(), output, abort.signal)
      .then(async (rows) => {
        await finished(output);
        return rows;
      });
    // A failure of one stops the others; the credits running out stops only the reading (the
    // count of the rest of the request is then of no interest), and the scrub ends at the last
    // row paid for.
    const failed = (error: unknown) => stop(error instanceof Error ? error : new Error(String(error)));
    counting.catch((error: unknown) => stopAt === null && failed(error));
    charging.catch((error: unknown) => !(error instanceof CreditsRanOut) && failed(error));
    scrubbing.catch(failed);
    const [countResult, chargeResult, scrubResult] = await Promise.allSettled([
      counting,
      charging,
      scrubbing,
    ]);
    if (chargeResult.status === 'rejected' && chargeResult.reason instanceof CreditsRanOut) {
      if (scrubResult.status === 'fulfilled') outcome = scrubResult.value;
      else if (paidRows > 0) throw scrubResult.reason;
      throw chargeResult.reason;
    }
    for (const settled of [countResult, chargeResult, scrubResult]) {
      if (settled.status === 'rejected') throw settled.reason;
    }
    outcome = (scrubResult as PromiseFulfilledResult<typeof outcome>).value;
    await uploadStored;
  } catch (error) {
    failure = abort.signal.aborted && abort.signal.reason instanceof ClientGone ? abort.signal.reason : error;
  } finally {
    clearInterval(heartbeat);
    wake();
  }

  const fullOutcome = (rows: NonNullable<typeof outcome>): JobOutcome => ({
    ...rows,
    resultKey,
    uploadSha256: uploadHash.copy().digest('hex'),
    resultSha256: resultHash.copy().digest('hex'),
  });

  // A client that went away after the last row, while the result was being stored, did not get
  // a whole answer: the job is failed like any dropped stream.
  if (failure === undefined && abort.signal.aborted) failure = abort.signal.reason;

  try {
    if (failure === undefined && outcome) {
      await settleStreamJob(db, job.id, workerId, fullOutcome(outcome), onJobEnd);
      await bulk.signals.ended(job.id);
      response.end();
      return;
    }
  } catch (error) {
    failure = error;
  }

  // Whatever failed, nothing of it is kept and nothing is charged: rows that went out before the
  // failure are not a whole result (the client may not even have received them all).
  request.pause();
  upload.destroy();
  result.destroy();
  try {
    await Promise.allSettled([blobStore.delete(job.upload_key), blobStore.delete(resultKey)]);
    await failJob(db, job.id, workerId, failureMessage(failure, started), onJobEnd);
    await bulk.signals.ended(job.id);
  } finally {
    // Headers and rows have gone: the response is cut off without its last chunk, so any HTTP
    // client sees a broken transfer rather than a short file that looks whole.
    if (started) {
      await firstBytes;
      response.destroy();
    }
  }
  if (started) return;
  if (failure instanceof CreditsRanOut) {
    throw failure.paused ? planPausedError() : insufficientCredits(failure.need, failure.available);
  }
  throw refusalOf(failure);
}

/** What the job record says about a failure. */
function failureMessage(failure: unknown, rowsSent: boolean): string {
  if (failure instanceof ClientGone) return STREAM_LOST_ERROR;
  if (failure instanceof CreditsRanOut) {
    if (failure.paused) return 'Your plan was paused while the file streamed: nothing was charged.';
    return rowsSent
      ? STREAM_CREDITS_RAN_OUT
      : `Not enough credits for the first ${failure.need.toLocaleString('en-US')} records (the account has ${failure.available.toLocaleString('en-US')}): nothing was scrubbed or charged.`;
  }
  if (failure instanceof UnprocessableFile) return `${failure.message} Your credits were given back.`;
  if (failure instanceof CsvError)
    return `${(refusalOf(failure) as ApiError).message} Your credits were given back.`;
  if (failure instanceof ApiError) return `${failure.message} Your credits were given back.`;
  return 'The file could not be processed because of a server error. Your credits were given back.';
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
