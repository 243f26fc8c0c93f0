import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, type Options, parse } from 'csv-parse';
import { linesSpanned } from '../csv/csv-records.ts';
import { ImportError, type ImportProblem } from '../import-error.ts';

/**
 * `strict` refuses the whole file when any row is bad (ImportError listing every problem);
 * `partial` skips bad rows and reports them. A file whose header or syntax is broken is refused
 * either way: nothing in it can be trusted.
 */
export type ImportMode = 'strict' | 'partial';

/** A file path, or a stream of its bytes. */
export type ImportInput = Readable | string;

export interface ImportOptions {
  /** Defaults to `strict`. */
  mode?: ImportMode;
  /** Names the file in messages; defaults to the file name, or to the kind of file for a stream. */
  source?: string;
}

export interface ImportReport {
  source: string;
  /** The file's own date (ISO) where its format carries one, else the first 12 hex digits of its sha256. */
  version: string;
  sha256: string;
  /** Data rows read: blank lines and the header are not rows. */
  rowsRead: number;
  /** Rows that went into the data. Rows neither used nor in `problems` were skipped on purpose. */
  rowsUsed: number;
  /** Bad rows, with their line in the file; the first 1,000 when there are more. */
  problems: ImportProblem[];
  problemCount: number;
}

const MAX_PROBLEMS = 1000;

/** Counts rows and problems for one file, and decides at the end whether the import stands. */
export class ImportSession {
  readonly source: string;
  readonly mode: ImportMode;
  readonly problems: ImportProblem[] = [];
  problemCount = 0;
  rowsRead = 0;
  rowsUsed = 0;
  /** The last line read, for problems found at the end of the file. */
  lastLine = 0;

  constructor(input: ImportInput, kind: string, options: ImportOptions) {
    this.source = options.source ?? (typeof input === 'string' ? basename(input) : kind);
    this.mode = options.mode ?? 'strict';
  }

  problem(line: number, message: string): void {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ line, message });
  }

  /** A problem that makes the rest of the file unreadable: refuses it in either mode. */
  fatal(line: number, message: string): never {
    this.problem(line, message);
    throw this.error();
  }

  error(): ImportError {
    const hidden = this.problemCount - this.problems.length;
    const more = hidden > 0 ? [{ line: this.lastLine, message: `${hidden} more problems not listed` }] : [];
    return new ImportError(this.source, [...this.problems, ...more]);
  }

  /** The report; in strict mode, ImportError instead if any row was bad. */
  finish(version: string | null, sha256: string): ImportReport {
    if (this.mode === 'strict' && this.problemCount > 0) throw this.error();
    return {
      source: this.source,
      version: version ?? sha256.slice(0, 12),
      sha256,
      rowsRead: this.rowsRead,
      rowsUsed: this.rowsUsed,
      problems: this.problems,
      problemCount: this.problemCount,
    };
  }
}

export interface DelimitedOptions {
  /** `auto` takes a tab if the first ten lines have one, else a comma. */
  delimiter: '\t' | ',' | 'auto';
  /** NANPA's files are latin1; the CSV files the operator writes are UTF-8. */
  encoding: 'latin1' | 'utf8';
}

const PEEK_BYTES = 64 * 1024;
const PEEK_LINES = 10;

// Tab-delimited files are read without quoting, as NANPA writes them (a company name may hold a
// lone quote); a field wholly in quotes loses them.
function cleanField(field: string, unquote: boolean): string {
  const text = field.trim();
  if (unquote && text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replaceAll('""', '"').trim();
  }
  return text;
}

/**
 * Streams a delimited file, calling `onRecord` with each non-blank record's trimmed fields and
 * the line it starts on. Returns the sha256 of the bytes read.
 */
export async function readDelimited(
  input: ImportInput,
  session: ImportSession,
  options: DelimitedOptions,
  onRecord: (fields: string[], line: number) => void,
): Promise<string> {
  const source = typeof input === 'string' ? createReadStream(input) : input;
  const hash = createHash('sha256');
  const chunks = (async function* () {
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      hash.update(bytes);
      yield bytes;
    }
  })();

  // The first lines, to tell the delimiter: a title line before the header may have neither.
  const head: Buffer[] = [];
  let headLength = 0;
  let lines = 0;
  while (headLength < PEEK_BYTES && lines < PEEK_LINES) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    headLength += next.value.length;
    for (const byte of next.value) if (byte === 10) lines++;
  }
  if (headLength === 0) session.fatal(1, 'the file is empty');
  let delimiter = options.delimiter;
  if (delimiter === 'auto') delimiter = Buffer.concat(head).includes(9) ? '\t' : ',';
  const tabs = delimiter === '\t';
  const bytes = (async function* () {
    yield* head;
    yield* chunks;
  })();

  try {
    await pipeline(
      Readable.from(bytes),
      parse({
        bom: true,
        delimiter,
        encoding: options.encoding,
        quote: tabs ? false : '"',
        relax_quotes: true,
        relax_column_count: true,
        raw: true,
        // With `raw`, each record comes as { record, raw }; it leaves as { fields, line }.
        on_record: (({ record }: { record: string[] }, context: { raw?: string }) => {
          const line = session.lastLine + 1;
          session.lastLine += linesSpanned(context.raw ?? '');
          return { fields: record.map((field) => cleanField(field, tabs)), line };
        }) as unknown as Options['on_record'],
      }),
      async (records: AsyncIterable<{ fields: string[]; line: number }>) => {
        for await (const { fields, line } of records) {
          if (fields.every((field) => field === '')) continue;
          onRecord(fields, line);
        }
      },
    );
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const message =
      error.code === 'CSV_QUOTE_NOT_CLOSED'
        ? 'a quoted field opens in this row and is never closed'
        : `malformed ${tabs ? 'tab-delimited' : 'CSV'} file (${error.code}): ${error.message}`;
    session.fatal(session.lastLine + 1, message);
  }
  return hash.digest('hex');
}

/** A column name reduced to letters and digits, upper case: `NPA-NXX` and `npa nxx` are one. */
export function columnKey(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

type ColumnSpec = Readonly<Record<string, { readonly names: readonly string[]; readonly required: boolean }>>;

/** Column indexes by name: required columns always have one. */
export type Columns<Spec extends ColumnSpec> = {
  [Name in keyof Spec]: Spec[Name]['required'] extends true ? number : number | undefined;
};

/**
 * Finds columns in a header by name (any case or punctuation), each under any of its names.
 * A header without a required column refuses the file: `expected` says what the file should be.
 */
export function readHeader<Spec extends ColumnSpec>(
  header: readonly string[],
  spec: Spec,
  session: ImportSession,
  line: number,
  expected: string,
): Columns<Spec> {
  const keys = header.map(columnKey);
  const found: Record<string, number | undefined> = {};
  const missing: string[] = [];
  for (const [name, { names, required }] of Object.entries(spec)) {
    const wanted = new Set(names.map(columnKey));
    const index = keys.findIndex((key) => wanted.has(key));
    found[name] = index >= 0 ? index : undefined;
    if (index < 0 && required) missing.push(names[0]!);
  }
  if (missing.length > 0) session.fatal(line, `the header lacks ${missing.join(', ')}: expected ${expected}`);
  return found as Columns<Spec>;
}

/** A list the operator keeps, as a CSV whose header is optional. */
export interface OptionalHeaderCsv<Spec extends ColumnSpec> {
  columns: Spec;
  /** What the file should be, for a header that lacks a column. */
  expected: string;
  /** Whether the first record is a row rather than the header: a row has its columns in `columns`' order. */
  looksLikeData: (fields: readonly string[]) => boolean;
}

/**
 * Streams an operator's list (comma or tab, UTF-8), header optional, calling `readRow` with each
 * row's fields, its line and the columns found; every row counts in `rowsRead`. Returns the sha256
 * of the bytes read.
 */
export async function readOptionalHeaderCsv<Spec extends ColumnSpec>(
  input: ImportInput,
  session: ImportSession,
  { columns: spec, expected, looksLikeData }: OptionalHeaderCsv<Spec>,
  readRow: (fields: string[], line: number, columns: Columns<Spec>) => void,
): Promise<string> {
  let columns: Columns<Spec> | null = null;
  return readDelimited(input, session, { delimiter: 'auto', encoding: 'utf8' }, (fields, line) => {
    if (columns === null) {
      if (!looksLikeData(fields)) {
        columns = readHeader(fields, spec, session, line, expected);
        return;
      }
      columns = Object.fromEntries(Object.keys(spec).map((name, index) => [name, index])) as Columns<Spec>;
    }
    session.rowsRead++;
    readRow(fields, line, columns);
  });
}

const PREAMBLE_LINES = 5;

/**
 * The header of one of NANPA's reports, which may open with a title or a "File Date" line (its
 * NPA report does): up to five lines before the header that name none of its columns are
 * skipped, and the first date on them or in the header cells ("File Updated 11/26/2025") is the
 * file's date.
 */
export class ReportHeader<Spec extends ColumnSpec> {
  readonly #spec: Spec;
  readonly #expected: string;
  readonly #names: ReadonlySet<string>;
  #skipped = 0;
  columns: Columns<Spec> | null = null;
  fileDate: string | null = null;
  /** Fields in the header line. */
  width = 0;
  /** Fields a row needs to reach every column found. */
  needed = 0;

  constructor(spec: Spec, expected: string) {
    this.#spec = spec;
    this.#expected = expected;
    this.#names = new Set(Object.values(spec).flatMap(({ names }) => names.map(columnKey)));
  }

  /** Reads a record that comes before the columns are known; refuses the file if it cannot be the header. */
  read(fields: readonly string[], session: ImportSession, line: number): void {
    this.fileDate ??= fields.map(usDate).find((date) => date !== null) ?? null;
    const namesColumns = fields.some((field) => this.#names.has(columnKey(field)));
    if (!namesColumns && this.#skipped < PREAMBLE_LINES) {
      this.#skipped++;
      return;
    }
    const columns = readHeader(fields, this.#spec, session, line, this.#expected);
    this.columns = columns;
    this.width = fields.length;
    this.needed = Math.max(...Object.values<number | undefined>(columns).map((index) => index ?? 0)) + 1;
  }

  /** At the end of the file: refuses it if no header was found. */
  finish(session: ImportSession): void {
    if (this.columns !== null) return;
    const required = Object.values(this.#spec).filter(({ required }) => required);
    session.fatal(
      session.lastLine + 1,
      `no header line names the columns ${required.map(({ names }) => names[0]).join(', ')}: expected ${this.#expected}`,
    );
  }
}

/**
 * Streams one of NANPA's reports: the records up to its header go to `header`, each row after it
 * to `readRow` with the columns found. The report; in strict mode, ImportError instead if any row
 * was bad.
 */
export async function readReport<Spec extends ColumnSpec>(
  input: ImportInput,
  session: ImportSession,
  header: ReportHeader<Spec>,
  options: DelimitedOptions,
  readRow: (fields: string[], line: number, columns: Columns<Spec>) => void,
): Promise<ImportReport> {
  const sha256 = await readDelimited(input, session, options, (fields, line) => {
    if (header.columns !== null) return readRow(fields, line, header.columns);
    header.read(fields, session, line);
  });
  header.finish(session);
  return session.finish(header.fileDate, sha256);
}

/** NANPA's dates, MM/DD/YYYY, as ISO; null for anything else. */
export function usDate(text: string): string | null {
  const match = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text);
  if (!match) return null;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

/**
 * An Operating Company Number: four letters or digits, as NECA assigns them. A spreadsheet drops
 * the leading zeros of an all-digit OCN (0123 becomes 123); they are put back.
 */
export function readOcn(text: string): string | null {
  const ocn = /^\d{1,3}$/.test(text) ? text.padStart(4, '0') : text.toUpperCase();
  return /^[0-9A-Z]{4}$/.test(ocn) ? ocn : null;
}
