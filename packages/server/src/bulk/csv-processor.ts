import type { Writable } from 'node:stream';
import { pipeline, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { DncListDate, ProofOperatorList } from '@scrub/contract';
import {
  CsvError,
  type CsvInput,
  countCsv,
  countCsvInThread,
  countCsvRows,
  countCsvRowsInThread,
  distinctValidNumbers,
  type OptionalColumn,
  type ScrubCsvResult,
  scrubCsv,
  scrubCsvInThread,
} from '@scrub/engine';
import type { BlobStore } from '../blob-store/blob-store.js';
import { type JobLookups, lookUpJobNumbers } from '../carrier-lookup/bulk-lookups.js';
import type { CarrierLookups } from '../carrier-lookup/carrier-lookups.js';
import { jobLists, namesOf } from '../operator-lists/operator-lists.js';
import { bulkReassignedOf } from '../reassigned/bulk-consent.js';
import { listDates } from '../reference-data/dnc-age.js';
import { checksPausedReason } from '../reference-data/dnc-readiness.js';
import {
  dncFor,
  type ReferenceData,
  type ReferenceSnapshot,
  versionsOf,
} from '../reference-data/reference-data.js';
import type { AccountDnc, SuppressionLists } from '../suppression/suppression-lists.js';
import { endWhenSettled, startSpan } from '../tracing/spans.js';
import { type JobProcessor, UnprocessableFile } from './bulk-worker.js';
import { type JobOutcome, type JobRow, newResultKey, type ScrubbedRows } from './job-store.js';
import { mappedHeaderRenamer } from './mapped-headers.js';
import { hashedReader, hashedWriter } from './sha256-streams.js';

/**
 * Files this small are read on the event loop: a millisecond of work at most, where starting a
 * thread takes tens (a CI user's 10-row job would otherwise wait for two thread starts).
 */
export const SMALL_FILE_BYTES = 64 * 1024;

/**
 * Files from this size are scrubbed on several threads when the processor has them: below it,
 * starting the threads (and their compilers warming up) takes about what they would save.
 */
export const PARALLEL_FILE_BYTES = 8 * 1024 * 1024;

/** How a large job's scrub is spread: over `threads` threads for files of `fromBytes` and more. */
export interface ScrubThreads {
  threads: number;
  fromBytes: number;
}

/** The engine's functions, on a thread of their own or on the caller's. */
const ON_A_THREAD = { rows: countCsvRowsInThread, count: countCsvInThread, scrub: scrubCsvInThread };
const IN_THIS_THREAD = { rows: countCsvRows, count: countCsv, scrub: scrubCsv };

/** A file the scrubber refused, as the job's error: what was wrong and where. */
function unprocessable(error: CsvError): UnprocessableFile {
  return new UnprocessableFile(
    error.line === null ? error.message : `${error.message} (line ${error.line})`,
    error.code === 'csv_empty' ? 'empty' : 'unreadable',
  );
}

/** The versions a job answers from: the shared datasets', and the account's own list's when it has one. */
function jobVersions(snapshot: ReferenceSnapshot, dnc: AccountDnc): Record<string, string> {
  // An account without a list of its own answers from the shared lists alone.
  const versions = versionsOf(snapshot);
  return dnc.set === snapshot.dnc ? versions : { ...versions, 'dnc:internal': dnc.version };
}

const withoutZeros = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0));

/** The operator lists a job's result flags, with the versions and dates its answers rest on. */
function listsUsed(lists: ReturnType<typeof jobLists>): ProofOperatorList[] {
  if (lists === undefined) return [];
  const names = namesOf(lists);
  return lists.lists.map((list, i) => ({
    name: names[i]!,
    version: list.version,
    released_on: list.releasedOn,
  }));
}

/**
 * What a scrub's counts make of its job's outcome, for a queued job and a streamed one alike:
 * each unique valid number costs the job's record price, less the lookup price of each number
 * no carrier lookup answered.
 */
function scrubOutcome(
  job: JobRow,
  result: ScrubCsvResult,
  datasetVersions: Record<string, string>,
  dncLists: DncListDate[],
  columnsEvaluatedAt: Date | null,
  reassigned: ReturnType<typeof bulkReassignedOf>,
  lists: ReturnType<typeof jobLists>,
  lookedUp: JobLookups | null,
): ScrubbedRows {
  const answered = lookedUp?.counts.answered ?? 0;
  return {
    numbersChecked: result.uniqueNumbers,
    datasetVersions,
    dncLists,
    totalRows: result.rows,
    duplicates: result.duplicates,
    chargeable: result.uniqueNumbers * (job.record_price - job.lookup_price) + answered * job.lookup_price,
    lineTypes: withoutZeros(result.lineTypes),
    dncStatus: withoutZeros(result.dncStatus),
    fileMessage: result.message,
    columnsEvaluatedAt,
    reassignedSource: reassigned?.source ?? null,
    lineTypeSources: result.lineTypeSources,
    carrierLookups: lookedUp?.counts ?? null,
    operatorLists: listsUsed(lists),
  };
}

/**
 * Scrubs a job's upload into its result file with the engine, on a worker thread (the API's event
 * loop stays free for checks), streaming from the blob store and back: memory stays flat whatever
 * the file's size. One datasets snapshot per job, so a file never mixes versions.
 */
export class CsvJobProcessor implements JobProcessor {
  constructor(
    private readonly files: BlobStore,
    private readonly referenceData: ReferenceData,
    /** SCRUB_REQUIRE_DNC: lists a job may not be scrubbed without. */
    private readonly requireDnc: readonly string[] = [],
    /** Files up to this size are read on the event loop (tests set it to compare both ways). */
    private readonly smallFileBytes = SMALL_FILE_BYTES,
    /** Accounts' own suppression lists; without them, only what the operator imported for an account. */
    private readonly suppressionLists: SuppressionLists | null = null,
    /** SCRUB_SCRUB_THREADS; one thread a job by default. */
    private readonly scrubThreads: ScrubThreads = { threads: 1, fromBytes: PARALLEL_FILE_BYTES },
    /** Live carrier lookups, for jobs that ask them; null when the operator set none up. */
    private readonly carrierLookups: CarrierLookups | null = null,
  ) {}

  /**
   * A job's carrier lookups, made before its scrub: each distinct valid number of its upload. A job
   * that asks them where none are set up any more is scrubbed without (every lookup given back).
   */
  async #lookUp(job: JobRow, snapshot: ReferenceSnapshot, signal: AbortSignal): Promise<JobLookups | null> {
    if (job.lookup !== 'carrier' || this.carrierLookups === null) return null;
    const numbers = await distinctValidNumbers(await this.#upload(job), {
      phoneColumn: job.phone_col,
      header: job.header_row,
      exchange: snapshot.exchange,
      signal,
    });
    return lookUpJobNumbers(this.carrierLookups, numbers, signal);
  }

  /** The shared lists and the job's account's own list, read once per job. */
  async #dncFor(snapshot: ReferenceSnapshot, job: JobRow): Promise<AccountDnc> {
    if (this.suppressionLists === null) {
      const operator = snapshot.internal?.get(job.profile_id);
      return { set: dncFor(snapshot, job.profile_id), version: operator?.version ?? '-' };
    }
    return this.suppressionLists.dncFor(snapshot, job.profile_id);
  }

  async #upload(job: JobRow) {
    const upload = await this.files.read(job.upload_key);
    if (!upload) throw new UnprocessableFile('The uploaded file is gone: upload it again in a new job.');
    return upload;
  }

  /** The upload's size; unknown (as large as can be) when the store cannot say. */
  async #size(job: JobRow): Promise<number> {
    return (await this.files.stat(job.upload_key))?.size ?? Number.POSITIVE_INFINITY;
  }

  /** Where the job's file is read: a small one on the event loop, any other on a thread. */
  #engine(size: number) {
    return size <= this.smallFileBytes ? IN_THIS_THREAD : ON_A_THREAD;
  }

  async #lookUpOrRefuse(job: JobRow, snapshot: ReferenceSnapshot, signal: AbortSignal) {
    try {
      return await this.#lookUp(job, snapshot, signal);
    } catch (error) {
      if (error instanceof CsvError) throw unprocessable(error);
      throw error;
    }
  }

  async count(job: JobRow, file?: Buffer): Promise<number> {
    try {
      const engine = this.#engine(file ? file.length : await this.#size(job));
      // The records are all a submit charges for; their numbers are read when the job runs.
      const { rows } = await engine.rows(file ? Readable.from([file]) : await this.#upload(job), {
        phoneColumn: job.phone_col,
        header: job.header_row,
        ownedInput: true,
      });
      return rows;
    } catch (error) {
      if (error instanceof CsvError) throw unprocessable(error);
      throw error;
    }
  }

  /** The dates of the lists a job answers from, as of now. */
  #datesOf(dnc: AccountDnc): DncListDate[] {
    const { maxAgeDays, now } = this.referenceData.ageRule;
    return listDates(dnc.set, now(), maxAgeDays);
  }

  async quote(
    job: JobRow,
  ): Promise<{ records: number; uniqueNumbers: number; duplicates: number; dncLists: DncListDate[] }> {
    try {
      // Reads every number, as the scrub will with the same data: the quote and the run agree.
      const snapshot = this.referenceData.current();
      const dnc = await this.#dncFor(snapshot, job);
      const engine = this.#engine(await this.#size(job));
      const counts = await engine.count(await this.#upload(job), {
        phoneColumn: job.phone_col,
        header: job.header_row,
        exchange: snapshot.exchange,
        dnc: dnc.set,
        ownedInput: true,
      });
      return {
        records: counts.rows,
        uniqueNumbers: counts.uniqueNumbers,
        duplicates: counts.duplicates,
        dncLists: this.#datesOf(dnc),
      };
    } catch (error) {
      if (error instanceof CsvError) throw unprocessable(error);
      throw error;
    }
  }

  async process(
    job: JobRow,
    onProgress: (processedRows: number) => void,
    signal: AbortSignal,
  ): Promise<JobOutcome> {
    const paused = checksPausedReason(this.referenceData, this.requireDnc);
    if (paused !== null) {
      // Scrubbing without a DNC list would call its numbers clean.
      throw new UnprocessableFile(
        `The file was not scrubbed: ${paused} Your credits were given back; submit it again later.`,
      );
    }
    const snapshot = this.referenceData.current();
    const dnc = await this.#dncFor(snapshot, job);
    const lookedUp = await this.#lookUpOrRefuse(job, snapshot, signal);
    const size = await this.#size(job);
    const engine = this.#engine(size);
    // A large file is cut into parts scrubbed on several threads: the same result, sooner.
    const threads = size >= this.scrubThreads.fromBytes ? this.scrubThreads.threads : 1;
    const resultKey = newResultKey();
    // The job's phases, each a span when tracing is on: they overlap, the file streaming through.
    const uploading = startSpan('bulk upload', { attributes: { 'scrub.blob.key': resultKey } });
    const store = this.files.createWriteStream(resultKey, 'text/csv');
    // Both files are hashed as they stream through, for the job's proof of scrub.
    const output = hashedWriter(store);
    const source = await this.#upload(job);
    const downloading = startSpan('bulk download', { attributes: { 'scrub.blob.key': job.upload_key } });
    if (downloading) endWhenSettled(downloading, finished(source));
    const input = hashedReader(source);
    // A store that fails (disk full, bucket refused) stops the scrub at once, and the job fails.
    const storing = new AbortController();
    const stored = finished(store);
    stored.catch((error: unknown) => storing.abort(error));
    if (uploading) endWhenSettled(uploading, stored);
    const columns = (job.output_columns ?? []) as OptionalColumn[];
    const reassigned = bulkReassignedOf(snapshot, job.consent_col);
    const lists = jobLists(snapshot, job.lists);
    // The calling window is as of the scrub's start, for every row: the job says when.
    const evaluatedAt = new Date();
    // A job that asked the standard headers for its mapped columns has its header row renamed on the way.
    const renamer = mappedHeaderRenamer(job);
    if (renamer !== null) pipeline(renamer, output.stream, () => undefined);
    try {
      const scrubbing = startSpan('bulk scrub', { attributes: { 'scrub.job.threads': threads } });
      const scrubbed = engine.scrub(input.stream, renamer ?? output.stream, {
        phoneColumn: job.phone_col,
        header: job.header_row,
        ...(columns.length > 0 ? { columns, evaluatedAt: evaluatedAt.getTime() } : {}),
        lists,
        ...(reassigned === null ? {} : { reassigned: reassigned.option }),
        ...(lookedUp === null ? {} : { carrier: lookedUp.option }),
        exchange: snapshot.exchange,
        dnc: dnc.set,
        threads,
        signal: AbortSignal.any([signal, storing.signal]),
        onProgress: (progress) => onProgress(progress.rows),
        // The store's read stream is ours alone, and its writer is done with each piece of the
        // result once written: the file's bytes are freed as they go, not left to the collector.
        ownedInput: true,
        releaseWritten: true,
      });
      if (scrubbing) endWhenSettled(scrubbing, scrubbed);
      const result = await scrubbed;
      await stored;
      return {
        resultKey,
        uploadSha256: input.sha256(),
        resultSha256: output.sha256(),
        ...scrubOutcome(
          job,
          result,
          jobVersions(snapshot, dnc),
          this.#datesOf(dnc),
          columns.length > 0 ? evaluatedAt : null,
          reassigned,
          lists,
          lookedUp,
        ),
      };
    } catch (error) {
      input.stream.destroy();
      output.stream.destroy();
      // A store that failed closed the output first: its reason says what went wrong.
      const storeError: unknown = await stored.then(
        () => null,
        (reason: unknown) => reason,
      );
      if (error instanceof CsvError) throw unprocessable(error);
      throw storeError ?? error;
    }
  }

  /**
   * Scrubs a streamed job's rows (`POST /bulk/jobs/stream`) from `input` into `output` on a
   * thread, with the data and options `process` uses: the same file gives the same bytes. The
   * output is left to the caller to store and hash. `input`'s chunks are taken over (each must be
   * a buffer of its own), and each chunk of the result freed once `output` has written it.
   * Throws UnprocessableFile for a file the scrub refuses.
   */
  async scrubStream(
    job: JobRow,
    input: CsvInput,
    output: Writable,
    signal: AbortSignal,
  ): Promise<ScrubbedRows> {
    const snapshot = this.referenceData.current();
    const dnc = await this.#dncFor(snapshot, job);
    const columns = (job.output_columns ?? []) as OptionalColumn[];
    const reassigned = bulkReassignedOf(snapshot, job.consent_col);
    const lists = jobLists(snapshot, job.lists);
    const evaluatedAt = new Date();
    try {
      const result = await scrubCsvInThread(input, output, {
        phoneColumn: job.phone_col,
        header: job.header_row,
        ...(columns.length > 0 ? { columns, evaluatedAt: evaluatedAt.getTime() } : {}),
        lists,
        ...(reassigned === null ? {} : { reassigned: reassigned.option }),
        exchange: snapshot.exchange,
        dnc: dnc.set,
        signal,
        // The caller hands over pieces of its own and is done with each piece of the result once
        // written (as for a stored upload: freed as they go).
        ownedInput: true,
        releaseWritten: true,
      });
      return scrubOutcome(
        job,
        result,
        jobVersions(snapshot, dnc),
        this.#datesOf(dnc),
        columns.length > 0 ? evaluatedAt : null,
        reassigned,
        lists,
        null,
      );
    } catch (error) {
      if (error instanceof CsvError) throw unprocessable(error);
      throw error;
    }
  }
}
