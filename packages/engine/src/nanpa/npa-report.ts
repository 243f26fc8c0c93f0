import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { readCsvRecords } from '../csv/csv-records.ts';
import { ImportError, type ImportProblem } from '../import-error.ts';
import { countryCodeOf, type NanpCountry } from './countries.ts';

/** One row of NANPA's NPA report, validated, with the columns the engine uses. */
export interface NpaReportRow {
  /** Line of the row in the file, for messages. */
  line: number;
  npa: number;
  assignable: boolean;
  explanation: string;
  reserved: boolean;
  assigned: boolean;
  /** ISO date, or null when the report leaves it empty. */
  assignmentDate: string | null;
  /** G geographic, N non-geographic, null when the report leaves it empty. */
  use: 'G' | 'N' | null;
  location: string;
  country: NanpCountry | null;
  inService: boolean;
  inServiceDate: string | null;
  service: string;
  /** TIME_ZONE as the report writes it: `E`, `EC`, `(UTC-10)`...; empty when not given. */
  timeZone: string;
}

export interface NpaReport {
  /** The report's "File Date" as an ISO date: the dataset's version. */
  fileDate: string;
  /** sha256 of the bytes read, hex. */
  sha256: string;
  /** Every code 200-999, in order. */
  rows: NpaReportRow[];
}

export const FIRST_NPA = 200;
export const LAST_NPA = 999;

const COLUMNS = [
  'NPA_ID',
  'ASSIGNABLE',
  'EXPLANATION',
  'RESERVED',
  'ASSIGNED',
  'ASSIGNMENT_DT',
  'USE',
  'LOCATION',
  'COUNTRY',
  'IN_SERVICE',
  'IN_SERVICE_DT',
  'SERVICE',
  'TIME_ZONE',
] as const;

type Column = (typeof COLUMNS)[number];

// A file full of errors is a wrong file; listing thousands of lines helps no one.
const MAX_PROBLEMS = 200;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return date.toISOString().slice(0, 10);
}

/**
 * Dates as NANPA has written them: `11/26/2025` (file date), `01-Jan-1947` (current rows) and
 * `01-JAN-47` (older copies). Two-digit years start at 1947, the year the NANP began, so
 * `47`-`99` are 19xx and `00`-`46` are 20xx.
 */
export function parseReportDate(text: string): string | null {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (us) return isoDate(Number(us[3]), Number(us[1]), Number(us[2]));
  const dmy = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(text);
  if (!dmy) return null;
  const month = MONTHS.indexOf(dmy[2]!.toUpperCase()) + 1;
  if (month === 0) return null;
  let year = Number(dmy[3]);
  if (dmy[3]!.length === 2) year += year >= 47 ? 1900 : 2000;
  return isoDate(year, month, Number(dmy[1]));
}

function parseFlag(text: string): boolean | null {
  const value = text.toUpperCase();
  if (value === 'YES' || value === 'Y') return true;
  if (value === 'NO' || value === 'N') return false;
  return null;
}

function describeRanges(codes: number[]): string {
  const parts: string[] = [];
  let start = codes[0];
  for (let i = 1; i <= codes.length; i++) {
    const previous = codes[i - 1]!;
    if (codes[i] === previous + 1) continue;
    parts.push(start === previous ? `${previous}` : `${start}-${previous}`);
    start = codes[i];
  }
  return parts.join(', ');
}

class NpaReportReader {
  readonly source: string;
  readonly problems: ImportProblem[] = [];
  readonly rows = new Map<number, NpaReportRow>();
  /** Codes whose rows were rejected: reported on their own lines, not again as missing. */
  readonly rejected = new Set<number>();
  fileDate: string | null = null;
  columns: Map<Column, number> | null = null;
  fieldCount = 0;
  /** The last line of the last record read. */
  lastLine = 0;
  problemCount = 0;

  constructor(source: string) {
    this.source = source;
  }

  problem(line: number, message: string): void {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ line, message });
  }

  error(): ImportError {
    const hidden = this.problemCount - this.problems.length;
    const more = hidden > 0 ? [{ line: this.lastLine, message: `${hidden} more problems not listed` }] : [];
    return new ImportError(this.source, [...this.problems, ...more]);
  }

  accept(record: string[], line: number): void {
    if (record.length === 1 && record[0]!.trim() === '') return;
    if (this.fileDate === null) this.readFileDate(record, line);
    else if (this.columns === null) this.readHeader(record, line);
    else this.readRow(record, line);
  }

  // The first line names the report's version; without it the table would have no version.
  readFileDate(record: string[], line: number): void {
    const date = record[0]?.trim() === 'File Date' ? parseReportDate(record[1]?.trim() ?? '') : null;
    if (date === null) {
      this.problem(line, `expected "File Date,MM/DD/YYYY" as the first line, found "${record.join(',')}"`);
      throw this.error();
    }
    this.fileDate = date;
  }

  readHeader(record: string[], line: number): void {
    const names = record.map((name) => name.trim().toUpperCase());
    const missing = COLUMNS.filter((column) => !names.includes(column));
    if (missing.length > 0) {
      this.problem(line, `header lacks column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
      throw this.error();
    }
    this.columns = new Map(COLUMNS.map((column) => [column, names.indexOf(column)]));
    this.fieldCount = record.length;
  }

  readRow(record: string[], line: number): void {
    if (record.length !== this.fieldCount) {
      this.problem(
        line,
        `expected ${this.fieldCount} fields, found ${record.length} (truncated or malformed row)`,
      );
      const npaText = record[this.columns!.get('NPA_ID')!]?.trim() ?? '';
      if (/^[2-9]\d\d$/.test(npaText)) this.rejected.add(Number(npaText));
      return;
    }
    const columns = this.columns!;
    const field = (column: Column) => record[columns.get(column)!]!.trim();

    const npaText = field('NPA_ID');
    if (!/^[2-9]\d\d$/.test(npaText)) {
      this.problem(line, `NPA_ID "${npaText}" is not an area code 200-999`);
      return;
    }
    const npa = Number(npaText);
    const earlier = this.rows.get(npa);
    if (earlier) {
      this.problem(line, `area code ${npa} appears again (first on line ${earlier.line})`);
      return;
    }

    const problemCount = this.problemCount;
    const flag = (column: Column): boolean => {
      const value = parseFlag(field(column));
      if (value === null) this.problem(line, `${npa}: ${column} "${field(column)}" is not Yes/No`);
      return value ?? false;
    };
    const date = (column: Column): string | null => {
      const text = field(column);
      if (text === '') return null;
      const value = parseReportDate(text);
      if (value === null) this.problem(line, `${npa}: ${column} "${text}" is not a date`);
      return value;
    };

    const useText = field('USE').toUpperCase();
    if (useText !== 'G' && useText !== 'N' && useText !== '') {
      this.problem(line, `${npa}: USE "${field('USE')}" is not G, N or empty`);
    }
    const countryText = field('COUNTRY');
    const country = countryText === '' ? null : (countryCodeOf(countryText) ?? null);
    if (countryText !== '' && country === null) {
      this.problem(line, `${npa}: COUNTRY "${countryText}" is not a NANP country the engine knows`);
    }

    const row: NpaReportRow = {
      line,
      npa,
      assignable: flag('ASSIGNABLE'),
      explanation: field('EXPLANATION'),
      reserved: flag('RESERVED'),
      assigned: flag('ASSIGNED'),
      assignmentDate: date('ASSIGNMENT_DT'),
      use: useText === 'G' || useText === 'N' ? useText : null,
      location: field('LOCATION'),
      country,
      inService: flag('IN_SERVICE'),
      inServiceDate: date('IN_SERVICE_DT'),
      service: field('SERVICE'),
      timeZone: field('TIME_ZONE'),
    };

    if (row.inService && !row.assigned) this.problem(line, `${npa}: in service but not assigned`);
    if (row.assigned && row.use === 'G' && (row.location === '' || countryText === '')) {
      this.problem(line, `${npa}: assigned geographic code without LOCATION and COUNTRY`);
    }
    if (this.problemCount === problemCount) this.rows.set(npa, row);
    else this.rejected.add(npa);
  }

  finish(sha256: string): NpaReport {
    const endLine = this.lastLine + 1;
    if (this.fileDate === null) this.problem(endLine, 'the file is empty');
    else if (this.columns === null) this.problem(endLine, 'the header line is missing');
    else {
      const missing: number[] = [];
      for (let npa = FIRST_NPA; npa <= LAST_NPA; npa++) {
        if (!this.rows.has(npa) && !this.rejected.has(npa)) missing.push(npa);
      }
      if (missing.length > 0) {
        const codes = `area code${missing.length === 1 ? '' : 's'} ${describeRanges(missing)}`;
        this.problem(endLine, `end of file: ${codes} missing (is the file truncated?)`);
      }
    }
    if (this.problemCount > 0) throw this.error();
    const rows = [...this.rows.values()].sort((a, b) => a.npa - b.npa);
    return { fileDate: this.fileDate!, sha256, rows };
  }
}

/**
 * Reads NANPA's NPA (area code) report, streamed from a file path or a Readable, and checks it:
 * the file date line, the header, every row's fields, and that every code 200-999 appears once.
 * Throws ImportError with line numbers rather than return a table with holes.
 */
export async function readNpaReport(input: Readable | string): Promise<NpaReport> {
  const source = typeof input === 'string' ? createReadStream(input) : input;
  const reader = new NpaReportReader(typeof input === 'string' ? basename(input) : 'NPA report');
  const hash = createHash('sha256');
  await readCsvRecords(
    source,
    {
      hash,
      lines: reader,
      malformed: (line, message) => {
        reader.problem(line, message);
        throw reader.error();
      },
    },
    (record, line) => reader.accept(record, line),
  );
  return reader.finish(hash.digest('hex'));
}
