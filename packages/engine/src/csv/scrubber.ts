import type { InvalidReason } from '../check-phone.ts';
import {
  type ClassCode,
  classifyCode,
  FIRST_INVALID_CODE,
  invalidReasonOf,
  type LineType,
} from '../classify.ts';
import { codeGivenListing, DncState, dncStateOf } from '../dnc/verdict.ts';
import { lineTypeSourceCode, SOURCE_NAMES, sourceTallyOf } from '../line-type-source.ts';
import { parsePhone } from '../parse-phone.ts';
import { applyCarrierLookups, PortedCells } from './carrier-cells.ts';
import { consentDayOf } from './consent-day.ts';
import {
  type CsvShape,
  type CsvTally,
  csvResultOf,
  type ScrubbedCsvPart,
  type ScrubCsvResult,
} from './csv-counts.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import type { CsvDialect } from './dialect.ts';
import { phoneColumnOf } from './phone-column.ts';
import { quickPhone } from './plain-phone.ts';
import {
  consentColumnOf,
  REASSIGNED_NO_DATA,
  ReassignedCells,
  reassignedStateOf,
} from './reassigned-cells.ts';
import { INVALID, LINE_TYPES, ResultCells, tailCells } from './result-cells.ts';
import { RowBuffer } from './row-buffer.ts';
import { fieldText, isBlankRow, QUOTE, RowScanner } from './row-scanner.ts';
import { RowWriter } from './row-writer.ts';
import type { ScrubCsvOptions } from './scrub-options.ts';
import { ValidNumbers } from './valid-numbers.ts';

// Over 500 lines, kept whole: the hot loop of every bulk job, whose batch state lives in private
// fields the loop reads directly; its cells, rows and duplicates are already modules of their own.

const UNREADABLE_LINES = 100;
// Rows looked up and written together: enough for maskMany's batches, small enough to stay in cache.
const BATCH = 4096;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** A row whose phone could not be read: an invalid ClassCode of its own, counted under its parse reason. */
const UNREADABLE = 255 as ClassCode;

/**
 * One pass over a file's bytes: scan a row, read its phone, classify, write the row with its cells.
 * This is the hot loop of every bulk job (about a tenth of a bare CSV pass, docs/benchmarks.md): the
 * batch's state lives in private fields the loop reads directly; what a row's bytes become is the
 * `RowWriter`'s, the cells it gets the `ResultCells`', its duplicates the `ValidNumbers`'.
 */
export class Scrubber {
  readonly #opened: CsvDialect;
  readonly #options: ScrubCsvOptions;
  readonly #writes: boolean;
  /** Counting records only: no phone is read. */
  readonly #rowsOnly: boolean;
  readonly #scanner: RowScanner;
  readonly #writer: RowWriter;
  readonly #cells: ResultCells;
  /** With a consent-date column: the Reassigned cell, and each row's consent day (NaN: none). */
  readonly #reassigned: ReassignedCells | null;
  readonly #consentDays: Float64Array | null;
  #consentColumn = -1;
  /** With carrier lookups: the Ported cell, and per row whether its lookup says it was ported. */
  readonly #ported: PortedCells | null;
  readonly #portedRows = new Uint8Array(BATCH);
  /** Rows with a valid number by SourceCode (scrubs only). */
  readonly #sourceCounts = new Float64Array(SOURCE_NAMES.length);
  readonly #dncMask: number;

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
  /** Per row, the operator lists holding its number (bit i: `options.lists.lists[i]`). */
  readonly #listMasks = new Uint32Array(BATCH);
  /** Per row, its DncState. */
  readonly #states = new Uint8Array(BATCH);
  /** Per row, its SourceCode (scrubs only). */
  readonly #sources = new Uint8Array(BATCH);
  /** Per row, the end of its cells to neutralise in the writer's notes. */
  readonly #neutralEnds = new Int32Array(BATCH);
  /** Bytes the batch can take written out. */
  #bound = 0;

  // Counts.
  #rows = 0;
  #blankRows = 0;
  readonly #lineTypes = new Float64Array(LINE_TYPES.length);
  readonly #numberReasons = new Float64Array(32);
  readonly #parseReasons = new Map<InvalidReason, number>();
  readonly #valid: ValidNumbers;
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
    this.#valid = new ValidNumbers(shape !== undefined, BATCH);
    if (shape !== undefined && shape !== null) {
      this.#header = shape.header;
      this.#columns = shape.columns;
      this.#phoneColumn = shape.phoneColumn;
    }
    this.#options = options;
    const asked = mode === 'scrub' ? options.reassigned : undefined;
    this.#reassigned = asked ? new ReassignedCells(opened.separator) : null;
    this.#consentDays = asked ? new Float64Array(BATCH) : null;
    this.#ported = mode === 'scrub' && options.carrier ? new PortedCells(opened.separator) : null;
    if (asked && shape) {
      this.#consentColumn = consentColumnOf(asked.consentColumn, shape.header, shape.columns, 1);
    }
    this.#writes = mode === 'scrub';
    this.#rowsOnly = mode === 'rows';
    this.#scanner = new RowScanner(opened.separator, opened.lineEnding, options.maxRowBytes);
    this.#writer = new RowWriter(this.#scanner.separator, opened.lineEnding);
    this.#dncMask = options.dncMask ?? -1;
    this.#cells = new ResultCells(
      opened.separator,
      options.columns,
      () => options.evaluatedAt ?? Date.now(),
      this.#writes,
      options.lists?.lists.map((list) => list.name),
      tailCells([this.#reassigned?.cells, this.#ported?.cells].filter((cells) => cells !== undefined)),
    );
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
    return csvResultOf(
      this.#opened,
      this.#shapeOf(),
      this.#tally(),
      this.#valid.unique,
      this.#valid.duplicates,
    );
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
      numbers: this.#valid.kept,
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
      lineTypeSources: sourceTallyOf(this.#sourceCounts),
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
    if (this.#consentDays !== null) this.#consentDays[n] = this.#consentDay(buf, fields);
    this.#rowStarts[n] = start;
    this.#rowEnds[n] = end;
    this.#place(n, fields, end);
    this.#bound += this.#rowBound(buf, start, end);
    this.#neutralEnds[n] = this.#writer.noted;
  }

  /** The most bytes the scanned row takes written out; notes its cells to neutralise. */
  #rowBound(buf: Buffer, start: number, end: number): number {
    const writer = this.#writer;
    return (
      end -
      start +
      this.#cells.longest +
      (this.#reassigned?.longest ?? 0) +
      (this.#ported?.longest ?? 0) +
      writer.lineEnding.length +
      writer.neutralise(buf, this.#scanner)
    );
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
   * The cells row `n` gets: Line Type, DNC, the optional ones, the lists', then Reassigned and
   * Ported when asked (its tail: `tailCells`' index, Reassigned's answer then Ported's).
   */
  #cellsOf(n: number): Buffer {
    const kind = this.#kinds[n]!;
    let tail = 0;
    if (this.#reassigned !== null) {
      tail =
        kind === INVALID
          ? REASSIGNED_NO_DATA
          : reassignedStateOf(
              this.#options.reassigned!.disconnects,
              this.#numbers[n]!,
              this.#consentDays![n]!,
            );
    }
    if (this.#ported !== null) tail = tail * this.#ported.cells.length + this.#portedRows[n]!;
    return this.#cells.of(
      kind,
      this.#states[n]!,
      this.#numbers[n]!,
      this.#sources[n]!,
      this.#listMasks[n]!,
      tail,
    );
  }

  /** The current row's consent day, NaN when its cell is missing or not a date. */
  #consentDay(buf: Buffer, fields: number): number {
    const column = this.#consentColumn;
    if (column < 0 || column >= fields) return Number.NaN;
    return consentDayOf(buf, this.#scanner.starts[column]!, this.#scanner.ends[column]!);
  }

  /** The header's added names. */
  #headerCells(): Buffer {
    const added = [this.#cells.header, this.#reassigned?.header, this.#ported?.header];
    return Buffer.concat(added.filter((cells) => cells !== undefined));
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
    const header = this.#options.header ?? true;
    const names = header
      ? Array.from({ length: fields }, (_, k) => fieldText(buf, starts[k]!, ends[k]!))
      : null;
    this.#phoneColumn = phoneColumnOf(this.#options.phoneColumn, names, fields, this.#scanner.line);
    this.#header = names;
    this.#columns = fields;
    const reassigned = this.#writes ? this.#options.reassigned : undefined;
    if (reassigned) {
      this.#consentColumn = consentColumnOf(reassigned.consentColumn, names, fields, this.#scanner.line);
    }
    if (this.#writes) this.#prefix = this.#prefixOf(buf, start, header);
    return header;
  }

  /** What goes before the first rows: the byte-order mark, and the header with its added names. */
  #prefixOf(buf: Buffer, start: number, header: boolean): Buffer {
    const bom = this.#opened.bom ? UTF8_BOM : Buffer.alloc(0);
    const lineEnding = this.#writer.lineEnding;
    if (!header) {
      const sep = this.#opened.separator;
      const generated = Array.from({ length: this.#columns }, (_, k) => `Column ${k + 1}`).join(sep);
      return Buffer.concat([bom, Buffer.from(generated), this.#headerCells(), lineEnding]);
    }
    const end = this.#scanner.rowEnd;
    const out = Buffer.allocUnsafe(bom.length + this.#rowBound(buf, start, end));
    bom.copy(out);
    const writer = this.#writer;
    const written = writer.write(
      buf,
      out,
      bom.length,
      start,
      end,
      end,
      0,
      0,
      writer.noted,
      this.#headerCells(),
    );
    writer.clear();
    return out.subarray(0, written);
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
    const at = this.#writeRows(buf, out, prefix.length, count);
    this.#bytesWritten += at;
    this.#writer.clear();
    this.#bound = 0;
    yield out.subarray(0, at);
  }

  /**
   * Writes the batch's `count` rows into `out` from `at`; answers where they end. A function of its
   * own, not part of the generator `#flush`: V8 compiles this loop while it runs (on-stack
   * replacement) and reuses that code for later batches, and code after such a loop in a generator
   * kept leaving it (a deoptimisation at most batches' end, with operator lists or a consent column).
   */
  #writeRows(buf: Buffer, out: Buffer, at: number, count: number): number {
    const writer = this.#writer;
    let neutralFrom = 0;
    for (let n = 0; n < count; n++) {
      const neutralTo = this.#neutralEnds[n]!;
      at = writer.write(
        buf,
        out,
        at,
        this.#rowStarts[n]!,
        this.#rowEnds[n]!,
        this.#insertAt[n]!,
        this.#padding[n]!,
        neutralFrom,
        neutralTo,
        this.#cellsOf(n),
      );
      neutralFrom = neutralTo;
    }
    return at;
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
    if (this.#writes) {
      for (let n = 0; n < count; n++) this.#sources[n] = lineTypeSourceCode(kinds[n]!, numbers[n]!, exchange);
      const carrier = this.#options.carrier;
      if (carrier) applyCarrierLookups(carrier, count, kinds, numbers, this.#sources, this.#portedRows);
    }
    const dnc = this.#options.dnc;
    if (dnc) dnc.maskMany(numbers, masks, 0, count);
    else masks.fill(0, 0, count);
    // Operator lists flag their own columns only: never the DNC state.
    this.#options.lists?.maskMany(numbers, this.#listMasks, 0, count);
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
      if (this.#writes) this.#sourceCounts[this.#sources[n]!]!++;
      this.#valid.add(numbers[n]!);
    }
  }
}
