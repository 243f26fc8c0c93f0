import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { findColumnByName } from './column-name.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvInput, type OpenedCsv, openCsv } from './csv-input.ts';
import { isFormulaCell, neutraliseFormula } from './formula.ts';
import { RowBuffer } from './row-buffer.ts';
import { fieldText, RowScanner } from './row-scanner.ts';
import { DNC_COLUMN, LINE_TYPE_COLUMN } from './scrub-options.ts';

/** The line types a scrubbed file may already carry, as the product writes them. */
export const IMPORTED_LINE_TYPES = [
  'mobile',
  'landline',
  'voip',
  'toll_free',
  'invalid',
  'unknown_geographic',
] as const;
export type ImportedLineType = (typeof IMPORTED_LINE_TYPES)[number];

/**
 * Other spellings of a line type that mean one thing only, written `_`-separated and lower case
 * (`Toll Free`, `toll-free` and `TOLL_FREE` all read `toll_free`). Carrier categories (ILEC, CLEC,
 * PCS...) are left out on purpose: they guess a line type, and an imported file is taken as fact.
 */
const LINE_TYPE_SYNONYMS: Readonly<Record<string, ImportedLineType>> = {
  wireless: 'mobile',
  cell: 'mobile',
  cellular: 'mobile',
  cell_phone: 'mobile',
  land_line: 'landline',
  wireline: 'landline',
  fixed: 'landline',
  fixed_line: 'landline',
  voice_over_ip: 'voip',
  tollfree: 'toll_free',
};

/** A DNC state as an imported file keeps it: clean, listed, unchecked, or blank (nothing to call). */
export type ImportedDnc = '0' | '1' | 'unchecked' | '';

/**
 * A DNC cell: `0`/`1`/`unchecked`/blank as this product's results write them (blank: an invalid
 * number, nothing to call; `unchecked`: no current list covered it), and the words people use.
 * Unchecked and blank stay what they are: never read as clean.
 */
const DNC_WORDS: Readonly<Record<string, ImportedDnc>> = {
  '': '',
  unchecked: 'unchecked',
  '0': '0',
  clean: '0',
  no: '0',
  n: '0',
  false: '0',
  '1': '1',
  dnc: '1',
  yes: '1',
  y: '1',
  true: '1',
};

/** Reads a line-type cell; null when it names none. */
export function importedLineTypeOf(cell: string): ImportedLineType | null {
  const word = cell
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if ((IMPORTED_LINE_TYPES as readonly string[]).includes(word)) return word as ImportedLineType;
  return Object.hasOwn(LINE_TYPE_SYNONYMS, word) ? LINE_TYPE_SYNONYMS[word]! : null;
}

/** Reads a DNC cell: `'0'` clean, `'1'` on a list, `'unchecked'`, `''`; null when it is none of them. */
export function importedDncOf(cell: string): ImportedDnc | null {
  const word = cell.trim().toLowerCase();
  return Object.hasOwn(DNC_WORDS, word) ? DNC_WORDS[word]! : null;
}

export interface ImportScrubbedCsvOptions {
  /** Header texts (any case) or 0-based positions; the file must have a header row. */
  phoneColumn: string | number;
  lineTypeColumn: string | number;
  dncColumn?: string | number | undefined;
  /** Rows listed per unknown value, at most (the count is always exact). Default 10. */
  rowsPerProblem?: number;
  /** Distinct unknown values reported, at most. Default 20. */
  maxProblems?: number;
  maxRowBytes?: number;
}

/** One value the file holds that is not a line type (or a DNC state): which, where, how often. */
export interface ScrubbedCsvProblem {
  column: 'line_type' | 'dnc' | 'row';
  value: string;
  /** 1-based rows of the file as a spreadsheet numbers them (the header is row 1), the first few. */
  rows: number[];
  count: number;
}

export interface ImportScrubbedCsvResult {
  /** Data rows (not the header, not blank lines). */
  rows: number;
  lineTypes: Partial<Record<ImportedLineType, number>>;
  /** `clean`, `dnc` and `unchecked` counts, those above 0; empty without a DNC column. */
  dncStatus: { clean?: number; dnc?: number; unchecked?: number };
  /** Rows whose phone, digits only, came earlier in the file. */
  duplicates: number;
  /** Empty when every row was understood; otherwise nothing should be kept of the output. */
  problems: ScrubbedCsvProblem[];
  /** Rows with a problem, all of them. */
  problemRows: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The digits a person would dial, without the country code: duplicates are found by them. */
function phoneKey(cell: string): string {
  const digits = cell.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

function csvCell(text: string, separator: string): string {
  const safe = neutraliseFormula(text);
  return /["\r\n]/.test(safe) || safe.includes(separator) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

class Problems {
  readonly list: ScrubbedCsvProblem[] = [];
  rows = 0;
  readonly #byKey = new Map<string, ScrubbedCsvProblem>();
  readonly #rowsPerProblem: number;
  readonly #maxProblems: number;

  constructor(rowsPerProblem: number, maxProblems: number) {
    this.#rowsPerProblem = rowsPerProblem;
    this.#maxProblems = maxProblems;
  }

  add(column: ScrubbedCsvProblem['column'], value: string, row: number): void {
    const key = `${column}\u0000${value}`;
    let problem = this.#byKey.get(key);
    if (!problem) {
      if (this.list.length >= this.#maxProblems) return;
      problem = { column, value, rows: [], count: 0 };
      this.#byKey.set(key, problem);
      this.list.push(problem);
    }
    problem.count++;
    if (problem.rows.length < this.#rowsPerProblem) problem.rows.push(row);
  }
}

/**
 * Reads a file scrubbed elsewhere (the admin's "Upload Existing Files"): every row's line type
 * (and DNC state, when a column holds it) must be one this product knows, or the row is reported.
 * With an `output`, writes the file as a result file: every column kept, in order, plus `Line Type`
 * and `DNC` in the product's words (DNC left empty without a DNC column: unknown is not clean), and
 * no cell that a spreadsheet would run. Call it first without an output to learn the problems, so
 * that a file with any is never stored, even in part.
 */
export async function importScrubbedCsv(
  input: CsvInput,
  output: Writable | null,
  options: ImportScrubbedCsvOptions,
): Promise<ImportScrubbedCsvResult> {
  const reader = new ScrubbedFileReader(options, output !== null);
  async function* rows() {
    yield* reader.read(await openCsv(input));
  }
  if (output) await pipeline(rows, output);
  else for await (const _ of rows());
  return reader.result();
}

/** One pass over a scrubbed file: the header's columns found, then each row checked, counted and written. */
class ScrubbedFileReader {
  readonly #options: ImportScrubbedCsvOptions;
  readonly #writes: boolean;
  readonly #problems: Problems;
  readonly #counts = { rows: 0, duplicates: 0, clean: 0, dnc: 0, unchecked: 0 };
  readonly #lineTypes: Partial<Record<ImportedLineType, number>> = {};
  readonly #seen = new Set<string>();
  // The file's dialect, set when it is opened.
  #scanner!: RowScanner;
  #sep = ',';
  #eol = '\n';
  // The header's columns.
  #columns = -1;
  #phone = -1;
  #lineType = -1;
  #dnc = -1;

  constructor(options: ImportScrubbedCsvOptions, writes: boolean) {
    this.#options = options;
    this.#writes = writes;
    this.#problems = new Problems(options.rowsPerProblem ?? 10, options.maxProblems ?? 20);
  }

  /** The result file's bytes (none when not writing), refusing an empty file or a header alone. */
  async *read(opened: OpenedCsv): AsyncGenerator<Buffer> {
    this.#sep = opened.separator;
    this.#eol = opened.lineEnding;
    this.#scanner = new RowScanner(opened.separator, opened.lineEnding, this.#options.maxRowBytes);
    const buffer = new RowBuffer();
    let prefix: Buffer | null = opened.bom ? UTF8_BOM : null;
    for await (const chunk of opened.chunks) {
      const buf = buffer.add(chunk);
      if (buf === null) continue;
      const [used, out] = this.#step(buf, false);
      buffer.carry(buf, used);
      if (out !== '' && this.#writes) {
        yield prefix ? Buffer.concat([prefix, Buffer.from(out)]) : Buffer.from(out);
        prefix = null;
      }
    }
    const [, out] = this.#step(buffer.finish(), true);
    if (this.#columns === -1) throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
    if (this.#counts.rows === 0) {
      throw new CsvError('csv_header_only', `${CSV_EMPTY_MESSAGE}: it has a header row and no rows under it`);
    }
    if (out !== '' && this.#writes)
      yield prefix ? Buffer.concat([prefix, Buffer.from(out)]) : Buffer.from(out);
  }

  result(): ImportScrubbedCsvResult {
    const counts = this.#counts;
    const dncStatus: ImportScrubbedCsvResult['dncStatus'] = {};
    if (counts.clean > 0) dncStatus.clean = counts.clean;
    if (counts.dnc > 0) dncStatus.dnc = counts.dnc;
    if (counts.unchecked > 0) dncStatus.unchecked = counts.unchecked;
    return {
      rows: counts.rows,
      lineTypes: this.#lineTypes,
      dncStatus,
      duplicates: counts.duplicates,
      problems: this.#problems.list,
      problemRows: this.#problems.rows,
    };
  }

  #step(buf: Buffer, final: boolean): [number, string] {
    const scanner = this.#scanner;
    let used = 0;
    let out = '';
    while (used < buf.length) {
      const next = scanner.scan(buf, used, buf.length, final);
      if (next < 0) break;
      const blank = scanner.rowEnd - used === scanner.fields - 1;
      if (!blank) out += (this.#columns === -1 ? this.#header(buf, used) : this.#record(buf, used)) ?? '';
      used = next;
    }
    return [used, out];
  }

  #cell(buf: Buffer, k: number): string {
    const scanner = this.#scanner;
    return k < scanner.fields ? fieldText(buf, scanner.starts[k]!, scanner.ends[k]!) : '';
  }

  #columnOf(buf: Buffer, ref: string | number, what: string): number {
    const scanner = this.#scanner;
    if (typeof ref === 'number') {
      if (ref < scanner.fields) return ref;
      throw new CsvError(
        'csv_column_out_of_range',
        `The ${what} column is number ${ref} (0-based), and the header row has ${scanner.fields} columns.`,
        scanner.line,
      );
    }
    const names = Array.from({ length: scanner.fields }, (_, k) => this.#cell(buf, k));
    const found = findColumnByName(names, ref);
    if (found !== -1) return found;
    throw new CsvError(
      'csv_column_not_found',
      `No "${ref}" column in the header row (${what}).`,
      scanner.line,
    );
  }

  #header(buf: Buffer, start: number): string {
    const options = this.#options;
    const sep = this.#sep;
    this.#columns = this.#scanner.fields;
    this.#phone = this.#columnOf(buf, options.phoneColumn, 'phone');
    this.#lineType = this.#columnOf(buf, options.lineTypeColumn, 'line type');
    if (options.dncColumn !== undefined) this.#dnc = this.#columnOf(buf, options.dncColumn, 'DNC');
    return `${buf.toString('utf8', start, this.#scanner.rowEnd)}${sep}${LINE_TYPE_COLUMN}${sep}${DNC_COLUMN}${this.#eol}`;
  }

  /** The row as the result holds it, or null when it has a problem. */
  #record(buf: Buffer, start: number): string | null {
    const scanner = this.#scanner;
    const problems = this.#problems;
    const counts = this.#counts;
    this.#counts.rows++;
    const row = scanner.line;
    if (scanner.fields > this.#columns) {
      problems.rows++;
      problems.add('row', `${scanner.fields} cells under a header of ${this.#columns}`, row);
      return null;
    }
    const rawType = this.#cell(buf, this.#lineType);
    const type = importedLineTypeOf(rawType);
    const rawDnc = this.#dnc === -1 ? '' : this.#cell(buf, this.#dnc);
    const dncState = this.#dnc === -1 ? '' : importedDncOf(rawDnc);
    if (type === null) problems.add('line_type', rawType.trim(), row);
    if (dncState === null) problems.add('dnc', rawDnc.trim(), row);
    if (type === null || dncState === null) {
      problems.rows++;
      return null;
    }
    this.#lineTypes[type] = (this.#lineTypes[type] ?? 0) + 1;
    if (dncState === '0') counts.clean++;
    if (dncState === '1') counts.dnc++;
    if (dncState === 'unchecked') counts.unchecked++;
    const key = phoneKey(this.#cell(buf, this.#phone));
    if (key !== '' && this.#seen.has(key)) counts.duplicates++;
    else if (key !== '') this.#seen.add(key);
    if (!this.#writes) return '';
    return `${this.#cells(buf, start)}${this.#sep.repeat(this.#columns - scanner.fields)}${this.#sep}${type}${this.#sep}${dncState}${this.#eol}`;
  }

  /** The row's cells for the result: as they came, or rewritten with formula cells neutralised. */
  #cells(buf: Buffer, start: number): string {
    const fields = this.#scanner.fields;
    for (let k = 0; k < fields; k++) {
      if (isFormulaCell(this.#cell(buf, k))) {
        return Array.from({ length: fields }, (_, j) => csvCell(this.#cell(buf, j), this.#sep)).join(
          this.#sep,
        );
      }
    }
    return buf.toString('utf8', start, this.#scanner.rowEnd);
  }
}
