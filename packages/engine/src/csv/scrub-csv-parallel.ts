import { availableParallelism } from 'node:os';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type CsvShape,
  type CsvTally,
  csvResultOf,
  type ScrubbedCsvPart,
  type ScrubCsvResult,
} from './csv-counts.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvInput, openCsv } from './csv-input.ts';
import { CsvPartThreads } from './csv-part-threads.ts';
import { type CsvPartSizes, partsOf, RecordSplitter } from './csv-parts.ts';
import type { ThreadScrubOptions } from './csv-thread.ts';
import { type CsvPartThreadData, release } from './csv-thread-protocol.ts';
import type { CsvDialect } from './dialect.ts';
import { NumberSet } from './number-set.ts';
import { checkPhoneColumn } from './phone-column.ts';
import { reassignedToShared } from './reassigned-cells.ts';
import { scrubCsv, scrubCsvPart } from './scrub-csv.ts';

export interface ParallelScrubOptions extends Omit<ThreadScrubOptions, 'ownedInput' | 'releaseWritten'> {
  /**
   * Threads to scrub on; default: the machine's available parallelism. 1 or less: `scrubCsv` on
   * the caller's thread. More threads than cores only share them.
   */
  threads?: number;
  /** How large the parts are (tests cut small files into many). */
  partSizes?: CsvPartSizes;
  /**
   * Whether the caller's thread scrubs parts too while every thread is busy or still loading
   * (default); false hands every part after the first row's to the threads (tests use it).
   */
  inPlace?: boolean;
}

/**
 * The first part is scrubbed on the caller's thread before any other can start (it holds the
 * header, which every part needs): small. The others are large enough that their handing over
 * (a message each way, a scrubber's set-up) costs little, and small enough that a few in flight per
 * thread hold little memory.
 */
export const PART_SIZES: CsvPartSizes = { first: 64 * 1024, rest: 2 * 1024 * 1024 };

/**
 * `scrubCsv` on several threads, with the same output bytes and counts. The design, simplest first:
 *
 * - The caller's thread reads the file and cuts it into parts at records' starts
 *   (`RecordSplitter`: the first line break past each part's size that is outside every quoted
 *   field, by the scanner's quote rules; the scanner then checks that each part ends on a record).
 * - Parts are scrubbed until one holds the file's first row (normally the first, 64 KiB), on the
 *   caller's thread: it sets the table's shape (header, width, phone column), which every later
 *   part is scrubbed with, as rows after the first.
 * - The later parts are dealt to the threads, a few per thread ahead, and their outputs written in
 *   the file's order as they come back: the output is the single-thread output cut in pieces. The
 *   header (with the byte-order mark) is written before the first rows, as in `scrubCsv`.
 * - Duplicates: a row's cells do not depend on whether its number came earlier, only the counts
 *   do. Each part hands back its valid numbers in order, and the merge adds them to one
 *   distinct-number set in the file's order: the first sighting counts, later ones (in the same
 *   part or another) are duplicates, exactly as in one pass.
 * - Lines: each part counts from its own first line; the merge adds the lines of the parts before
 *   (`unreadableLines`, and the line of an error). The first error in the file's order is the one
 *   thrown, as in one pass.
 *
 * The caller's thread does the reading, cutting, merging and writing (about a sixth of a scrub's
 * work, most of it the distinct-number set), and scrubs a part itself whenever every thread is
 * busy or still loading. A file no larger than the first part (64 KiB) starts no thread.
 */
export async function scrubCsvInParallel(
  input: CsvInput,
  output: Writable,
  options: ParallelScrubOptions,
): Promise<ScrubCsvResult> {
  const {
    threads = availableParallelism(),
    partSizes = PART_SIZES,
    inPlace = true,
    signal,
    onProgress,
  } = options;
  if (threads <= 1) return scrubCsv(input, output, options);
  checkPhoneColumn(options.phoneColumn);
  // One evaluation time for every part, so that no two threads tell the calling window apart.
  const evaluatedAt = options.evaluatedAt ?? Date.now();
  const { phoneColumn, header, maxRowBytes, exchange, dnc, dncMask, columns, reassigned, lists } = options;
  const partOptions = {
    phoneColumn,
    header,
    maxRowBytes,
    exchange,
    dnc,
    dncMask,
    columns,
    evaluatedAt,
    reassigned,
    lists,
    carrier: options.carrier,
  };
  let merge: PartMerge | undefined;
  await pipeline(
    async function* () {
      const opened = await openCsv(input, options.separator);
      const { chunks, ...dialect } = opened;
      merge = new PartMerge(dialect);
      // This thread scrubs too, when the others have enough to do.
      let pool: CsvPartThreads | null = null;
      const startThreads = () =>
        new CsvPartThreads(threads - 1, partThreadData(dialect, options, evaluatedAt));
      // Parts handed to the threads and not yet written, in the file's order.
      const pending: { part: Promise<ScrubbedCsvPart>; bytes: number }[] = [];
      const next = async function* (this: void) {
        const { part, bytes } = pending.shift()!;
        yield* merge!.add(await merge!.rethrow(part), bytes);
        onProgress?.(merge!.progress());
      };
      let finished = false;
      try {
        const splitter = new RecordSplitter(dialect.separator, dialect.lineEnding);
        let last = false;
        for await (const part of partsOf(chunks, splitter, partSizes, maxRowBytes)) {
          signal?.throwIfAborted();
          last = part.last;
          // Started as soon as there is more than one part, to load while this one is scrubbed.
          if (!part.last) pool ??= startThreads();
          // Until the first row is found (nothing is pending then), parts are scrubbed here one by
          // one; then here only when every thread has enough to do.
          const { shape } = merge;
          const bytes = part.bytes.length;
          const scrubbing =
            pool === null || shape === null || (inPlace && pool.busy())
              ? new Promise<ScrubbedCsvPart>((resolve) => {
                  try {
                    resolve(scrubCsvPart(part.bytes, part.last, dialect, shape, partOptions));
                  } finally {
                    // Its own buffer, copied from: freed now rather than at the next collection.
                    release(part.bytes);
                  }
                })
              : pool.scrub(part, shape);
          // Awaited in order below; a part that fails before then is not an unhandled rejection.
          scrubbing.catch(() => {});
          pending.push({ part: scrubbing, bytes });
          if (shape === null || pending.length >= 2 * threads) yield* next();
        }
        while (pending.length > 0) yield* next();
        if (!last) throw new Error('The CSV parts ended before the file did');
        merge.finish();
        finished = true;
      } finally {
        // Threads that scrubbed a whole file stay warm for the next; after a failure, they stop.
        pool?.close(finished);
      }
    },
    output,
    signal ? { signal } : {},
  );
  return merge!.result();
}

/** What the part threads are given with a file: its options, the tables shared rather than copied. */
function partThreadData(
  dialect: CsvDialect,
  options: ParallelScrubOptions,
  evaluatedAt: number,
): CsvPartThreadData {
  const { phoneColumn, header, maxRowBytes, exchange, dnc, dncMask, columns, reassigned, lists } = options;
  return {
    dialect,
    phoneColumn,
    ...(header === undefined ? {} : { header }),
    ...(maxRowBytes === undefined ? {} : { maxRowBytes }),
    exchange: exchange?.toShared() ?? null,
    dnc: dnc?.toShared() ?? null,
    ...(dncMask === undefined ? {} : { dncMask }),
    ...(columns === undefined ? {} : { columns: [...columns] }),
    ...(lists === undefined ? {} : { lists: lists.toShared() }),
    evaluatedAt,
    ...(reassigned === undefined ? {} : { reassigned: reassignedToShared(reassigned) }),
    ...(options.carrier === undefined ? {} : { carrier: options.carrier }),
  };
}

/**
 * The parts' outputs and counts, added up in the file's order: the header written before the
 * first rows, lines moved by the lines before each part, and one set of the file's distinct numbers.
 */
class PartMerge {
  readonly #dialect: CsvDialect;
  shape: CsvShape | null = null;
  /** The byte-order mark and header, until there are rows to write them with. */
  #prefix: Buffer | null = null;
  /** Line breaks in the parts so far: where the next part's lines start. */
  #lines = 0;
  #bytes = 0;
  readonly #tally: CsvTally = {
    rows: 0,
    blankRows: 0,
    lineTypes: { unknown_geographic: 0, mobile: 0, landline: 0, voip: 0, toll_free: 0, invalid: 0 },
    invalidReasons: {},
    listedNotInService: 0,
    unreadableRows: 0,
    unreadableLines: [],
    dncStatus: { clean: 0, dnc: 0, unchecked: 0 },
    lineTypeSources: {},
    bytesWritten: 0,
  };
  readonly #unique = new NumberSet();
  #duplicates = 0;

  constructor(dialect: CsvDialect) {
    this.#dialect = dialect;
  }

  /** A part scrubbed, or its error with the file's line: the parts before it are merged. */
  async rethrow(part: Promise<ScrubbedCsvPart>): Promise<ScrubbedCsvPart> {
    try {
      return await part;
    } catch (error) {
      throw this.#moved(error);
    }
  }

  *add(part: ScrubbedCsvPart, bytes: number): Generator<Buffer> {
    this.shape ??= part.shape;
    this.#prefix ??= part.prefix;
    const tally = this.#tally;
    if (this.#prefix !== null && part.output.length > 0) {
      yield this.#prefix;
      tally.bytesWritten += this.#prefix.length;
      this.#prefix = null;
    }
    yield* part.output;
    const add = part.tally;
    tally.rows += add.rows;
    tally.blankRows += add.blankRows;
    for (const [type, count] of Object.entries(add.lineTypes)) {
      tally.lineTypes[type as keyof CsvTally['lineTypes']] += count;
    }
    for (const [reason, count] of Object.entries(add.invalidReasons)) {
      const key = reason as keyof CsvTally['invalidReasons'];
      tally.invalidReasons[key] = (tally.invalidReasons[key] ?? 0) + count;
    }
    tally.listedNotInService += add.listedNotInService;
    tally.unreadableRows += add.unreadableRows;
    for (const line of add.unreadableLines) {
      if (tally.unreadableLines.length < 100) tally.unreadableLines.push(this.#lines + line);
    }
    tally.dncStatus.clean += add.dncStatus.clean;
    tally.dncStatus.dnc += add.dncStatus.dnc;
    tally.dncStatus.unchecked += add.dncStatus.unchecked;
    for (const [source, count] of Object.entries(add.lineTypeSources)) {
      tally.lineTypeSources[source] = (tally.lineTypeSources[source] ?? 0) + count;
    }
    tally.bytesWritten += add.bytesWritten;
    const unique = this.#unique;
    const { numbers } = part;
    for (let i = 0; i < numbers.length; i++) {
      if (!unique.add(numbers[i]!)) this.#duplicates++;
    }
    release(numbers);
    this.#lines += part.lines;
    this.#bytes += bytes;
  }

  progress(): { rows: number; bytes: number } {
    return { rows: this.#tally.rows, bytes: this.#bytes };
  }

  /** The whole file is in: refused as `scrubCsv` refuses it when it had no rows. */
  finish(): void {
    if (this.#tally.rows > 0) return;
    if (this.shape?.header) {
      throw new CsvError('csv_header_only', `${CSV_EMPTY_MESSAGE}: it has a header row and no rows under it`);
    }
    throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
  }

  result(): ScrubCsvResult {
    return csvResultOf(this.#dialect, this.shape!, this.#tally, this.#unique.size, this.#duplicates);
  }

  /** A part's error, its line counted from the file's start rather than the part's. */
  #moved(error: unknown): unknown {
    if (!(error instanceof CsvError) || error.line === null || this.#lines === 0) return error;
    const line = error.line + this.#lines;
    const message = error.message.replace(`Line ${error.line}:`, `Line ${line}:`);
    return new CsvError(error.code, message, line);
  }
}
