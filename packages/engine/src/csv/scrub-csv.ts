import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CallingClock, callingWindowOf } from '../calling-window.ts';
import type { InvalidReason } from '../check-phone.ts';
import {
  type ClassCode,
  classifyCode,
  type ExchangeData,
  FIRST_INVALID_CODE,
  invalidReasonOf,
  type LineType,
} from '../classify.ts';
import type { DncSet } from '../dnc/set.ts';
import { codeGivenListing, DncState, dncStateOf } from '../dnc/verdict.ts';
import { parsePhone } from '../parse-phone.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvInput, openCsv } from './csv-input.ts';
import type { CsvDialect, CsvSeparator } from './dialect.ts';
import { isFormulaCell } from './formula.ts';
import { NumberSet } from './number-set.ts';
import { quickPhone } from './plain-phone.ts';
import { RowBuffer } from './row-buffer.ts';
import { CR, fieldText, isBlankRow, LF, QUOTE, RowScanner } from './row-scanner.ts';

// Over 500 lines, kept whole: the Scrubber class below is the hot loop of every bulk job, one class
// on purpose (its comment says why); what comes before it is the options, the entry points that run
// it and the small helpers they share.

/** The columns a result file adds, after the header's last column. */
export const LINE_TYPE_COLUMN = 'Line Type';
export const DNC_COLUMN = 'DNC';

/**
 * Optional columns after DNC, in this order whatever order they are asked in: the area code's
 * time zones (IANA, space-separated) and whether the calling window (08:00-21:00 local, in every
 * zone) is open at the job's evaluation time (1, 0, or empty when it cannot be told).
 */
export const OPTIONAL_COLUMNS = { timezone: 'Time Zone', callable_now: 'Callable Now' } as const;
export type OptionalColumn = keyof typeof OPTIONAL_COLUMNS;

export interface CsvProgress {
  /** Data rows read so far. */
  rows: number;
  /** Bytes of the file read so far (of its UTF-8 form, for a UTF-16 file). */
  bytes: number;
}

export interface CountCsvOptions {
  /** The phone column: its header name (trimmed, case-insensitive) or its 0-based index. */
  phoneColumn: string | number;
  /** Whether the first row is a header. Default true. */
  header?: boolean;
  /** Default: detected from the first lines. */
  separator?: CsvSeparator;
  /** A longer row refuses the file (`csv_row_too_large`), so memory stays bounded. Default 1 MiB. */
  maxRowBytes?: number;
  /** Line types by exchange; without it, valid geographic numbers are `unknown_geographic`. */
  exchange?: ExchangeData;
  /**
   * The do-not-call lists; without them every valid number is `unchecked`. Counting reads them
   * too: a listed number the exchange data calls not in service is valid (and charged) all the same.
   */
  dnc?: DncSet;
  /** Which of the set's lists count (bit i: `dnc.lists[i]`). Default: all. */
  dncMask?: number;
  signal?: AbortSignal;
  /** Called after each chunk of the input is scrubbed. */
  onProgress?: (progress: CsvProgress) => void;
}

export interface ScrubCsvOptions extends CountCsvOptions {
  /** Optional columns to add after DNC (`OPTIONAL_COLUMNS`); default none: the file is as before. */
  columns?: readonly OptionalColumn[];
  /** When `callable_now` is evaluated, in ms since the epoch; default when the scrub starts. */
  evaluatedAt?: number;
}

/** What a file holds, by line type and number: a quote before scrubbing, counts after. */
export interface CsvCounts extends CsvDialect {
  /** The header's names; null without a header. */
  header: string[] | null;
  /** Columns of the header (the first row, without one): Line Type and DNC follow the last. */
  columns: number;
  /** The phone column's 0-based index. */
  phoneColumn: number;
  /** Data rows: not the header, not blank lines or rows of empty cells (which are left out). */
  rows: number;
  blankRows: number;
  lineTypes: Record<LineType, number>;
  /** Distinct valid numbers: the credits a file costs. Invalid numbers are free. */
  uniqueNumbers: number;
  /** Rows whose valid number an earlier row of the file has: `rows with a valid number - uniqueNumbers`. */
  duplicates: number;
  /** Invalid rows by reason (`too_short`, `area_code_not_in_service`...). */
  invalidReasons: Partial<Record<InvalidReason, number>>;
  /**
   * Rows whose number the exchange data calls not in service but a DNC list holds: answered
   * `unknown_geographic` and DNC 1, since the registry is evidence that the number exists.
   */
  listedNotInService: number;
  /** Rows too short to have the phone column: kept, and counted as invalid. */
  unreadableRows: number;
  /** Their 1-based lines in the file, the first 100. */
  unreadableLines: number[];
  /** A sentence for the file detail page about rows that could not be read; null when none. */
  message: string | null;
}

/** A file's table, as its first row sets it. */
export type CsvShape = Pick<CsvCounts, 'header' | 'columns' | 'phoneColumn'>;

/** What a scrub counts that adds up over the parts of a file (`scrubCsvPart`). */
export interface CsvTally {
  rows: number;
  blankRows: number;
  lineTypes: Record<LineType, number>;
  invalidReasons: Partial<Record<InvalidReason, number>>;
  listedNotInService: number;
  unreadableRows: number;
  /** 1-based, from the part's first line; the first 100. */
  unreadableLines: number[];
  dncStatus: { clean: number; dnc: number; unchecked: number };
  bytesWritten: number;
}

/** One part of a file scrubbed (`scrubCsvPart`): its rows' bytes and what they hold. */
export interface ScrubbedCsvPart {
  /** The part's rows, scrubbed; the byte-order mark and header in front of the file's first rows. */
  output: Buffer[];
  /** The file's table: the one given, or the one found in this part; null when not yet found. */
  shape: CsvShape | null;
  /** The byte-order mark and header when the part found the shape but had no rows to write them with. */
  prefix: Buffer | null;
  tally: CsvTally;
  /** The part's valid numbers, in order (duplicates are told across the whole file). */
  numbers: Float64Array;
  /** Line breaks in the part: where the next part's lines start. */
  lines: number;
}

/** The records of a file, without reading its numbers: what a job is charged when submitted. */
export type CsvRowCount = Pick<
  CsvCounts,
  keyof CsvDialect | 'header' | 'columns' | 'phoneColumn' | 'rows' | 'blankRows'
>;

export interface ScrubCsvResult extends CsvCounts {
  /**
   * Rows by their DNC cell: `clean` (0), `dnc` (1, invalid numbers on a list included) and
   * `unchecked` (valid, and no loaded list covers the number). Invalid numbers on no list, whose
   * cell is empty, are not counted here.
   */
  dncStatus: { clean: number; dnc: number; unchecked: number };
  bytesWritten: number;
}

const UNREADABLE_LINES = 100;
// Rows looked up and written together: enough for maskMany's batches, small enough to stay in cache.
const BATCH = 4096;
const APOSTROPHE = 0x27;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

// Line types by output index: a valid ClassCode is its own index; every invalid one is INVALID.
const LINE_TYPES = ['unknown_geographic', 'mobile', 'landline', 'voip', 'toll_free', 'invalid'] as const;
const INVALID = 5;
/** A row whose phone could not be read: an invalid ClassCode of its own, counted under its parse reason. */
const UNREADABLE = 255 as ClassCode;
// DNC cells by DncState: clean, listed, an invalid number on no list (nothing to call), unchecked.
const DNC_CELLS = ['0', '1', '', 'unchecked'] as const;

/**
 * Where a quoted field's text ends: before its closing quote. A field with text after its closing
 * quote is read to its end, quotes included, which a number never holds: it is treated as a formula.
 */
const quotedEnd = (buf: Buffer, start: number, end: number) =>
  end - 1 > start && buf[end - 1] === QUOTE ? end - 1 : end;

const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;

/**
 * Scrubs a CSV file as it streams: every row back, in order, each input cell as it was written
 * (bytes copied, not re-encoded), with `Line Type` and `DNC` after the header's last column; the
 * counts a job reports. Ends `output` when done, and destroys it on failure. Throws `CsvError` for
 * a file that cannot be scrubbed. See the README's "Bulk CSV" for every rule.
 */
export async function scrubCsv(
  input: CsvInput,
  output: Writable,
  options: ScrubCsvOptions,
): Promise<ScrubCsvResult> {
  checkPhoneColumn(options.phoneColumn);
  let scrubber: Scrubber | undefined;
  await pipeline(
    async function* () {
      const opened = await openCsv(input, options.separator);
      scrubber = new Scrubber(opened, options, 'scrub');
      yield* scrubber.run(opened.chunks);
    },
    output,
    options.signal ? { signal: options.signal } : {},
  );
  return scrubber!.result();
}

/**
 * What `scrubCsv` would count, without writing anything: the quote for a file (`uniqueNumbers`
 * is the credits it costs; the same as the run's, given the same exchange data).
 */
export async function countCsv(input: CsvInput, options: CountCsvOptions): Promise<CsvCounts> {
  checkPhoneColumn(options.phoneColumn);
  const opened = await openCsv(input, options.separator);
  const scrubber = new Scrubber(opened, options, 'count');
  for await (const _ of scrubber.run(opened.chunks));
  const { dncStatus: _dnc, bytesWritten: _written, ...counts } = scrubber.result();
  return counts;
}

/**
 * The file's records and shape, refusing it as `countCsv` would (no phone column, header only,
 * empty, not text), without parsing, classifying or remembering its numbers: about twice as fast,
 * for a charge made before the numbers are known.
 */
export async function countCsvRows(
  input: CsvInput,
  options: Omit<CountCsvOptions, 'exchange' | 'dnc' | 'dncMask'>,
): Promise<CsvRowCount> {
  checkPhoneColumn(options.phoneColumn);
  const opened = await openCsv(input, options.separator);
  const scrubber = new Scrubber(opened, options, 'rows');
  for await (const _ of scrubber.run(opened.chunks));
  const { encoding, bom, separator, lineEnding, header, columns, phoneColumn, rows, blankRows } =
    scrubber.result();
  return { encoding, bom, separator, lineEnding, header, columns, phoneColumn, rows, blankRows };
}

/**
 * Scrubs one part of a file: whole rows, from a record's start to the next part's (or the file's
 * end, `last`), as UTF-8 without the byte-order mark, in the file's `dialect`. With the file's
 * `shape` (found by an earlier part), every row is data; without it, the first row sets it as in
 * `scrubCsv`. Valid numbers are handed back rather than told apart, and a part with no rows is not
 * an error: the caller merges the parts in order (`scrub-csv-parallel.ts`). Lines (in errors and
 * `unreadableLines`) count from the part's first.
 */
export function scrubCsvPart(
  bytes: Buffer,
  last: boolean,
  dialect: CsvDialect,
  shape: CsvShape | null,
  options: ScrubCsvOptions,
): ScrubbedCsvPart {
  checkPhoneColumn(options.phoneColumn);
  const scrubber = new Scrubber(dialect, options, 'scrub', shape);
  const output = [...scrubber.part(bytes, last)];
  return { output, ...scrubber.partResult() };
}

/** The result of a scrub from its parts: the dialect, the table, the tally, and the distinct numbers. */
export function csvResultOf(
  dialect: CsvDialect,
  shape: CsvShape,
  tally: CsvTally,
  uniqueNumbers: number,
  duplicates: number,
): ScrubCsvResult {
  const { encoding, bom, separator, lineEnding } = dialect;
  const { header, columns, phoneColumn } = shape;
  const { dncStatus, bytesWritten, ...counts } = tally;
  return {
    encoding,
    bom,
    separator,
    lineEnding,
    header,
    columns,
    phoneColumn,
    rows: counts.rows,
    blankRows: counts.blankRows,
    lineTypes: counts.lineTypes,
    uniqueNumbers,
    duplicates,
    invalidReasons: counts.invalidReasons,
    listedNotInService: counts.listedNotInService,
    unreadableRows: counts.unreadableRows,
    unreadableLines: counts.unreadableLines,
    message: messageOf(shape, tally, uniqueNumbers),
    dncStatus,
    bytesWritten,
  };
}

/** A sentence for the file detail page about rows that could not be read; null when none. */
function messageOf(shape: CsvShape, tally: CsvTally, uniqueNumbers: number): string | null {
  const { unreadableRows, unreadableLines, listedNotInService, rows } = tally;
  const sentences: string[] = [];
  const column = shape.header?.[shape.phoneColumn]?.trim();
  const named = column ? ` (${JSON.stringify(column)})` : '';
  if (unreadableRows > 0) {
    const lines = unreadableLines.join(', ');
    const more = unreadableRows > unreadableLines.length ? ', ...' : '';
    sentences.push(
      `${plural(unreadableRows, 'row')} could not be read: too few columns to reach the phone column${named} (line${unreadableRows === 1 ? '' : 's'} ${lines}${more}). They are kept in the result as invalid.`,
    );
  }
  if (listedNotInService > 0) {
    sentences.push(
      `${plural(listedNotInService, 'number')} the exchange data calls not in service ${listedNotInService === 1 ? 'is' : 'are'} on a do-not-call list, so ${listedNotInService === 1 ? 'it exists' : 'they exist'}: line type unknown_geographic, DNC 1.`,
    );
  }
  if (rows > 0 && uniqueNumbers === 0) {
    sentences.push(
      `No row holds a valid US phone number in column ${shape.phoneColumn}${named}: is it the phone column?`,
    );
  }
  return sentences.length > 0 ? sentences.join(' ') : null;
}

export function checkPhoneColumn(phoneColumn: string | number): void {
  const valid =
    typeof phoneColumn === 'string'
      ? phoneColumn.trim() !== ''
      : Number.isInteger(phoneColumn) && phoneColumn >= 0;
  if (!valid) {
    throw new RangeError(
      `The phone column is a header name or a 0-based index, not ${JSON.stringify(phoneColumn)}`,
    );
  }
}

interface OptionalCells {
  key: string;
  /** For an invalid number. */
  invalid: Buffer;
  /** By area code (index npa). */
  byAreaCode: Buffer[];
}

let lastCells: OptionalCells | null = null;

/**
 * The optional columns' cells for each area code, as of `evaluatedAt`. The last answer is kept: a
 * file scrubbed in parts (`scrubCsvPart`) asks the same for every part, and each answer reads the
 * time zones of 800 area codes.
 */
function optionalCells(sep: string, columns: readonly OptionalColumn[], evaluatedAt: number): OptionalCells {
  const key = `${sep}|${columns.join(',')}|${evaluatedAt}`;
  if (lastCells?.key === key) return lastCells;
  const clock = new CallingClock(new Date(evaluatedAt));
  const cells = (zones: readonly string[], callable: boolean | null) =>
    Buffer.from(
      columns
        .map((column) =>
          column === 'timezone'
            ? `${sep}${zones.join(' ')}`
            : `${sep}${callable === null ? '' : callable ? 1 : 0}`,
        )
        .join(''),
    );
  const invalid = cells([], null);
  const byAreaCode = Array.from({ length: 1000 }, (_, npa) => {
    if (npa < 200) return invalid;
    const window = callingWindowOf(`+1${npa}2000000`, 'unknown_geographic', clock);
    return cells(window.timeZones, window.callableNow);
  });
  lastCells = { key, invalid, byAreaCode };
  return lastCells;
}

/**
 * One pass over a file's bytes: scan a row, read its phone, classify, write the row with its two
 * cells. It is one class of some 530 lines, over the usual 500 for the file, on purpose: this is
 * the hot loop of every bulk job (about a tenth of a bare CSV pass, docs/benchmarks.md), and its
 * state lives in private fields the loop reads directly rather than across module boundaries.
 */
class Scrubber {
  readonly #opened: CsvDialect;
  readonly #options: ScrubCsvOptions;
  readonly #writes: boolean;
  /** Counting records only: no phone is read. */
  readonly #rowsOnly: boolean;
  readonly #scanner: RowScanner;
  readonly #separator: number;
  readonly #lineEnding: Buffer;
  readonly #dncMask: number;
  /** Per line type and DNC state, the bytes written after a row's cells. */
  readonly #suffixes: Buffer[];
  /** With optional columns: their cells per area code (index npa), and for an invalid number. */
  readonly #extras: Buffer[] | null = null;
  readonly #invalidExtra: Buffer = Buffer.alloc(0);
  /** Suffix and optional cells joined, by suffix index * 1000 + area code. */
  readonly #joined = new Map<number, Buffer>();
  readonly #headerSuffix: Buffer;
  readonly #longestSuffix: number;

  // The table's shape, set by the first row.
  #header: string[] | null = null;
  #columns = -1;
  #phoneColumn = -1;
  /** The byte-order mark and header, written with the first rows: a file with none writes nothing. */
  #prefix: Buffer | null = null;

  // The batch: rows scanned and not yet written.
  #count = 0;
  readonly #rowStarts = new Int32Array(BATCH);
  readonly #rowEnds = new Int32Array(BATCH);
  /** Where Line Type and DNC go: after the header's last column. */
  readonly #insertAt = new Int32Array(BATCH);
  /** Separators added to a short row so that they still do. */
  readonly #padding = new Int32Array(BATCH);
  readonly #kinds = new Uint8Array(BATCH);
  readonly #numbers = new Float64Array(BATCH);
  readonly #masks = new Uint32Array(BATCH);
  /** Per row, its DncState. */
  readonly #states = new Uint8Array(BATCH);
  /** Per row, the end of its cells in #neutral. */
  readonly #neutralEnds = new Int32Array(BATCH);
  /** Cells to neutralise, as triples: where the apostrophe goes, the cell's end, whether to quote it. */
  #neutral = new Int32Array(3 * BATCH);
  #neutralLength = 0;
  /** Bytes the batch can take written out. */
  #bound = 0;

  // Counts.
  #rows = 0;
  #blankRows = 0;
  readonly #lineTypes = new Float64Array(LINE_TYPES.length);
  readonly #numberReasons = new Float64Array(32);
  readonly #parseReasons = new Map<InvalidReason, number>();
  readonly #unique = new NumberSet();
  #duplicates = 0;
  /** Scrubbing a part: its valid numbers, kept for the merge rather than told apart here. */
  #partNumbers: Float64Array | null = null;
  #partNumbersLength = 0;
  #clean = 0;
  #dnc = 0;
  #unchecked = 0;
  #listedNotInService = 0;
  #unreadableRows = 0;
  readonly #unreadableLines: number[] = [];
  #bytesRead = 0;
  #bytesWritten = 0;

  constructor(
    opened: CsvDialect,
    options: ScrubCsvOptions,
    mode: 'scrub' | 'count' | 'rows',
    /** A part of a file after the one its first row was in: every row is data, and numbers are kept. */
    shape?: CsvShape | null,
  ) {
    this.#opened = opened;
    if (shape !== undefined) {
      this.#partNumbers = new Float64Array(BATCH);
      if (shape !== null) {
        this.#header = shape.header;
        this.#columns = shape.columns;
        this.#phoneColumn = shape.phoneColumn;
      }
    }
    this.#options = options;
    this.#writes = mode === 'scrub';
    this.#rowsOnly = mode === 'rows';
    this.#scanner = new RowScanner(opened.separator, opened.lineEnding, options.maxRowBytes);
    this.#separator = this.#scanner.separator;
    this.#lineEnding = Buffer.from(opened.lineEnding);
    this.#dncMask = options.dncMask ?? -1;
    const sep = opened.separator;
    // Indexed by line type index * DNC_CELLS.length + DncState.
    this.#suffixes = LINE_TYPES.flatMap((lineType) =>
      DNC_CELLS.map((cell) => Buffer.from(`${sep}${lineType}${sep}${cell}`)),
    );
    const columns = Object.keys(OPTIONAL_COLUMNS).filter((column) =>
      options.columns?.includes(column as OptionalColumn),
    ) as OptionalColumn[];
    const headerNames = [LINE_TYPE_COLUMN, DNC_COLUMN, ...columns.map((column) => OPTIONAL_COLUMNS[column])];
    this.#headerSuffix = Buffer.from(headerNames.map((name) => `${sep}${name}`).join(''));
    let longestExtra = 0;
    if (columns.length > 0 && mode === 'scrub') {
      const cells = optionalCells(sep, columns, options.evaluatedAt ?? Date.now());
      this.#invalidExtra = cells.invalid;
      this.#extras = cells.byAreaCode;
      longestExtra = Math.max(...this.#extras.map((extra) => extra.length));
    }
    this.#longestSuffix =
      Math.max(...this.#suffixes.map((suffix) => suffix.length), this.#headerSuffix.length) + longestExtra;
  }

  async *run(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    const rows = new RowBuffer();
    for await (const chunk of chunks) {
      const buf = rows.add(chunk);
      if (buf !== null) rows.carry(buf, yield* this.#step(buf, false));
    }
    yield* this.#step(rows.finish(), true);
    // Nothing was written: the header waits for the first rows.
    if (this.#rows === 0) {
      if (this.#header !== null) {
        throw new CsvError(
          'csv_header_only',
          `${CSV_EMPTY_MESSAGE}: it has a header row and no rows under it`,
        );
      }
      throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
    }
  }

  result(): ScrubCsvResult {
    return csvResultOf(this.#opened, this.#shapeOf(), this.#tally(), this.#unique.size, this.#duplicates);
  }

  /** A part's rows, scrubbed: all of `buf`, which ends where a record starts unless it is the `last`. */
  *part(buf: Buffer, last: boolean): Generator<Buffer> {
    const used = yield* this.#step(buf, last);
    // The scanner refuses a row too long to end in the part; any other unfinished row is a part cut
    // where no record starts, which would scrub the rows around the cut wrongly.
    if (used !== buf.length) throw new Error('A part of the file does not end where a record starts');
  }

  partResult(): Omit<ScrubbedCsvPart, 'output'> {
    return {
      shape: this.#columns === -1 ? null : this.#shapeOf(),
      prefix: this.#prefix,
      tally: this.#tally(),
      numbers: this.#partNumbers!.subarray(0, this.#partNumbersLength),
      lines: this.#scanner.nextLine - 1,
    };
  }

  #shapeOf(): CsvShape {
    return { header: this.#header, columns: this.#columns, phoneColumn: this.#phoneColumn };
  }

  #tally(): CsvTally {
    const lineTypes = Object.fromEntries(LINE_TYPES.map((name, i) => [name, this.#lineTypes[i]!])) as Record<
      LineType,
      number
    >;
    const invalidReasons: Partial<Record<InvalidReason, number>> = Object.fromEntries(this.#parseReasons);
    this.#numberReasons.forEach((count, code) => {
      const reason = invalidReasonOf(code as ClassCode);
      if (count > 0 && reason !== null) invalidReasons[reason] = count;
    });
    return {
      rows: this.#rows,
      blankRows: this.#blankRows,
      lineTypes,
      invalidReasons,
      listedNotInService: this.#listedNotInService,
      unreadableRows: this.#unreadableRows,
      unreadableLines: this.#unreadableLines,
      dncStatus: { clean: this.#clean, dnc: this.#dnc, unchecked: this.#unchecked },
      bytesWritten: this.#bytesWritten,
    };
  }

  /**
   * Scans and writes the whole rows in `buf`, yielding each batch's output as it is made; returns
   * how many of the bytes they took.
   */
  *#step(buf: Buffer, final: boolean): Generator<Buffer, number> {
    this.#options.signal?.throwIfAborted();
    const scanner = this.#scanner;
    let at = 0;
    while (at < buf.length) {
      if (this.#rowsOnly && this.#columns !== -1) {
        // Counting records past the first row: where each ends, and whether it is blank, is all.
        const next = scanner.skip(buf, at, buf.length, final);
        if (next < 0) break;
        if (scanner.blank) this.#blankRows++;
        else this.#rows++;
        at = next;
        continue;
      }
      const next = scanner.scan(buf, at, buf.length, final);
      if (next < 0) break;
      this.#row(buf, at);
      at = next;
      if (this.#count === BATCH) yield* this.#flush(buf);
    }
    yield* this.#flush(buf);
    this.#bytesRead += at;
    this.#options.onProgress?.({ rows: this.#rows, bytes: this.#bytesRead });
    return at;
  }

  #row(buf: Buffer, start: number): void {
    const scanner = this.#scanner;
    const fields = scanner.fields;
    const end = scanner.rowEnd;
    // Nothing but separators: an empty line, or a spreadsheet's row of empty cells (not as the header).
    if (isBlankRow(start, end, fields, this.#columns === -1 && (this.#options.header ?? true))) {
      this.#blankRows++;
      return;
    }
    if (this.#columns === -1 && this.#shape(buf, start)) return;
    this.#rows++;
    if (this.#rowsOnly) return;
    const n = this.#count++;
    if (this.#phoneColumn < fields) {
      this.#numbers[n] = this.#phone(
        buf,
        scanner.starts[this.#phoneColumn]!,
        scanner.ends[this.#phoneColumn]!,
      );
    } else {
      this.#numbers[n] = -1;
      this.#unreadableRows++;
      if (this.#unreadableLines.length < UNREADABLE_LINES) this.#unreadableLines.push(scanner.line);
    }
    if (!this.#writes) return;
    this.#rowStarts[n] = start;
    this.#rowEnds[n] = end;
    this.#place(n, fields, end);
    this.#bound += end - start + this.#longestSuffix + this.#lineEnding.length + this.#neutralise(buf);
    this.#neutralEnds[n] = this.#neutralLength;
  }

  /** Where row `n`'s Line Type and DNC go: after the header's last column, padding a short row. */
  #place(n: number, fields: number, end: number): void {
    if (fields > this.#columns) {
      this.#insertAt[n] = this.#scanner.ends[this.#columns - 1]!;
      this.#padding[n] = 0;
    } else {
      this.#insertAt[n] = end;
      this.#padding[n] = this.#columns - fields;
      this.#bound += this.#columns - fields;
    }
  }

  /**
   * Notes the row's cells that a spreadsheet would run as formulas (`isFormulaCell`, the one rule);
   * returns the bytes neutralising them adds. A cell gets an apostrophe in front (inside its quotes,
   * if quoted), which spreadsheets show as text; one starting with a line break is also quoted, so
   * that it stays one cell. The phone column is never changed: it comes back as it was sent.
   */
  #neutralise(buf: Buffer): number {
    const { starts, ends, fields } = this.#scanner;
    let added = 0;
    for (let k = 0; k < fields; k++) {
      if (k === this.#phoneColumn) continue;
      const start = starts[k]!;
      const end = ends[k]!;
      if (start === end) continue;
      const first = buf[start]!;
      if (first !== QUOTE) {
        if (!isFormulaCell(buf, start, end)) continue;
        const quote = first === CR || first === LF ? 1 : 0;
        this.#note(start, end, quote);
        added += quote ? 3 + 2 * (end - start) : 1;
      } else if (isFormulaCell(buf, start + 1, quotedEnd(buf, start, end))) {
        this.#note(start + 1, end, 0);
        added += 1;
      }
    }
    return added;
  }

  #note(at: number, end: number, quote: number): void {
    if (this.#neutralLength + 3 > this.#neutral.length) {
      const grown = new Int32Array(this.#neutral.length * 2);
      grown.set(this.#neutral);
      this.#neutral = grown;
    }
    this.#neutral[this.#neutralLength++] = at;
    this.#neutral[this.#neutralLength++] = end;
    this.#neutral[this.#neutralLength++] = quote;
  }

  /** A phone cell's number, or -1 with the reason counted. */
  #phone(buf: Buffer, start: number, end: number): number {
    let number = quickPhone(buf, start, end);
    if (number === -1 && end - start > 2 && buf[start] === QUOTE && buf[end - 1] === QUOTE) {
      number = quickPhone(buf, start + 1, end - 1);
    }
    if (number !== -1) return number;
    const parsed = parsePhone(fieldText(buf, start, end));
    if (parsed.ok) return parsed.number;
    this.#parseReasons.set(parsed.reason, (this.#parseReasons.get(parsed.reason) ?? 0) + 1);
    return -1;
  }

  /**
   * The first row: the header (names, the phone column found by name), or, without one, the first
   * data row, which sets the width. True when it was the header.
   */
  #shape(buf: Buffer, start: number): boolean {
    const { starts, ends, fields } = this.#scanner;
    const { phoneColumn } = this.#options;
    const header = this.#options.header ?? true;
    const names = header
      ? Array.from({ length: fields }, (_, k) => fieldText(buf, starts[k]!, ends[k]!))
      : null;
    const row = header ? 'header row' : 'first row';
    if (typeof phoneColumn === 'string') {
      if (names === null) {
        throw new CsvError(
          'csv_column_not_found',
          `The phone column is given by name (${JSON.stringify(phoneColumn)}), but the file has no header row: give its number instead (0 for the first column)`,
        );
      }
      const wanted = phoneColumn.trim().toLowerCase();
      this.#phoneColumn = names.findIndex((name) => name.trim().toLowerCase() === wanted);
      if (this.#phoneColumn === -1) {
        const shown = names.slice(0, 30).map((name) => JSON.stringify(name.trim()));
        if (names.length > 30) shown.push(`and ${names.length - 30} more`);
        throw new CsvError(
          'csv_column_not_found',
          `No column ${JSON.stringify(phoneColumn.trim())} in the header row (columns: ${shown.join(', ')})`,
          this.#scanner.line,
        );
      }
    } else {
      if (phoneColumn >= fields) {
        throw new CsvError(
          'csv_column_out_of_range',
          `Phone column ${phoneColumn} is out of range: the ${row} has ${plural(fields, 'column')} (0 to ${fields - 1})`,
          this.#scanner.line,
        );
      }
      this.#phoneColumn = phoneColumn;
    }
    this.#header = names;
    this.#columns = fields;
    if (!this.#writes) return header;

    const bom = this.#opened.bom ? UTF8_BOM : Buffer.alloc(0);
    if (!header) {
      const sep = this.#opened.separator;
      const generated = Array.from({ length: fields }, (_, k) => `Column ${k + 1}`).join(sep);
      this.#prefix = Buffer.concat([bom, Buffer.from(generated), this.#headerSuffix, this.#lineEnding]);
      return false;
    }
    const end = this.#scanner.rowEnd;
    const bound = end - start + this.#longestSuffix + this.#lineEnding.length + this.#neutralise(buf);
    const out = Buffer.allocUnsafe(bom.length + bound);
    bom.copy(out);
    const written = this.#write(
      buf,
      out,
      bom.length,
      start,
      end,
      end,
      0,
      0,
      this.#neutralLength,
      this.#headerSuffix,
    );
    this.#neutralLength = 0;
    this.#prefix = out.subarray(0, written);
    return true;
  }

  /**
   * Classifies and looks up the batch's numbers, then writes its rows. Each step runs over the whole
   * batch in its own small loop: the table reads of a lookup miss the CPU's cache, and in a loop
   * with nothing else the CPU has many of them in flight at once.
   */
  *#flush(buf: Buffer): Generator<Buffer> {
    const count = this.#count;
    if (count === 0) return;
    this.#classify(count);
    this.#count = 0;
    if (!this.#writes) return;
    const prefix = this.#prefix ?? Buffer.alloc(0);
    const out = Buffer.allocUnsafe(prefix.length + this.#bound);
    prefix.copy(out);
    this.#prefix = null;
    let at = prefix.length;
    let neutralFrom = 0;
    for (let n = 0; n < count; n++) {
      const neutralTo = this.#neutralEnds[n]!;
      at = this.#write(
        buf,
        out,
        at,
        this.#rowStarts[n]!,
        this.#rowEnds[n]!,
        this.#insertAt[n]!,
        this.#padding[n]!,
        neutralFrom,
        neutralTo,
        this.#suffixOf(n),
      );
      neutralFrom = neutralTo;
    }
    this.#bytesWritten += at;
    this.#neutralLength = 0;
    this.#bound = 0;
    yield out.subarray(0, at);
  }

  /**
   * Sets the batch's line types and DNC states (the rules single checks share: `dnc/verdict.ts`),
   * and counts them and duplicates. Invalid numbers are looked up too: a listed one says DNC 1.
   */
  #classify(count: number): void {
    const numbers = this.#numbers;
    const kinds = this.#kinds;
    const masks = this.#masks;
    const exchange = this.#options.exchange;
    for (let n = 0; n < count; n++) {
      const number = numbers[n]!;
      kinds[n] = number < 0 ? UNREADABLE : classifyCode(number, exchange);
    }
    const dnc = this.#options.dnc;
    if (dnc) dnc.maskMany(numbers, masks, 0, count);
    else masks.fill(0, 0, count);
    const counted = this.#dncMask;
    for (let n = 0; n < count; n++) {
      const listed = masks[n]! & counted;
      const found = kinds[n]! as ClassCode;
      const code = codeGivenListing(found, listed);
      if (code !== found) this.#listedNotInService++;
      const covering = dnc && listed === 0 ? dnc.covering(numbers[n]!) & counted : 0;
      const state = dncStateOf(code, listed, covering);
      this.#states[n] = state;
      if (state === DncState.CLEAN) this.#clean++;
      else if (state === DncState.LISTED) this.#dnc++;
      else if (state === DncState.UNCHECKED) this.#unchecked++;
      if (code >= FIRST_INVALID_CODE) {
        if (code !== UNREADABLE) this.#numberReasons[code]!++;
        kinds[n] = INVALID;
        this.#lineTypes[INVALID]!++;
        continue;
      }
      kinds[n] = code;
      this.#lineTypes[code]!++;
      if (this.#partNumbers !== null) this.#keep(numbers[n]!);
      else if (!this.#unique.add(numbers[n]!)) this.#duplicates++;
    }
  }

  #keep(number: number): void {
    if (this.#partNumbersLength === this.#partNumbers!.length) {
      const grown = new Float64Array(this.#partNumbersLength * 2);
      grown.set(this.#partNumbers!);
      this.#partNumbers = grown;
    }
    this.#partNumbers![this.#partNumbersLength++] = number;
  }

  /** Row `n`'s cells after its own: Line Type and DNC, and the optional columns asked for. */
  #suffixOf(n: number): Buffer {
    const index = this.#kinds[n]! * DNC_CELLS.length + this.#states[n]!;
    const suffix = this.#suffixes[index]!;
    if (this.#extras === null) return suffix;
    const npa = this.#kinds[n] === INVALID ? 0 : Math.floor(this.#numbers[n]! / 10_000_000);
    const key = index * 1000 + npa;
    let joined = this.#joined.get(key);
    if (joined === undefined) {
      joined = Buffer.concat([suffix, npa === 0 ? this.#invalidExtra : this.#extras[npa]!]);
      this.#joined.set(key, joined);
    }
    return joined;
  }

  /** Writes one row: its bytes, apostrophes before formula cells, and the suffix where it goes. */
  #write(
    buf: Buffer,
    out: Buffer,
    at: number,
    start: number,
    end: number,
    insertAt: number,
    padding: number,
    neutralFrom: number,
    neutralTo: number,
    suffix: Buffer,
  ): number {
    const neutral = this.#neutral;
    let from = start;
    let inserted = false;
    for (let k = neutralFrom; k < neutralTo; k += 3) {
      const cell = neutral[k]!;
      if (!inserted && cell > insertAt) {
        at = this.#suffix(out, copy(buf, from, insertAt, out, at), padding, suffix);
        from = insertAt;
        inserted = true;
      }
      at = copy(buf, from, cell, out, at);
      const cellEnd = neutral[k + 1]!;
      if (neutral[k + 2] === 1) {
        out[at++] = QUOTE;
        out[at++] = APOSTROPHE;
        for (let i = cell; i < cellEnd; i++) {
          if (buf[i] === QUOTE) out[at++] = QUOTE;
          out[at++] = buf[i]!;
        }
        out[at++] = QUOTE;
        from = cellEnd;
      } else {
        out[at++] = APOSTROPHE;
        from = cell;
      }
    }
    if (!inserted) {
      at = this.#suffix(out, copy(buf, from, insertAt, out, at), padding, suffix);
      from = insertAt;
    }
    at = copy(buf, from, end, out, at);
    return copy(this.#lineEnding, 0, this.#lineEnding.length, out, at);
  }

  #suffix(out: Buffer, at: number, padding: number, suffix: Buffer): number {
    for (let i = 0; i < padding; i++) out[at++] = this.#separator;
    return copy(suffix, 0, suffix.length, out, at);
  }
}

// Rows are short: a loop beats Buffer#copy's per-call cost for them.
function copy(from: Buffer, start: number, end: number, to: Buffer, at: number): number {
  if (end - start > 64) return at + from.copy(to, at, start, end);
  for (let i = start; i < end; i++) to[at++] = from[i]!;
  return at;
}
