import type { InvalidReason } from '../check-phone.ts';
import type { LineType } from '../classify.ts';
import type { CsvDialect } from './dialect.ts';

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
  /** Rows with a valid number by what their line type rests on (`LineTypeSource`); scrubs only. */
  lineTypeSources: Record<string, number>;
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
  /** Rows with a valid number by what their line type rests on: `exchange`, `carrier_lookup`... */
  lineTypeSources: Record<string, number>;
  bytesWritten: number;
}

export const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;

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
  const { dncStatus, lineTypeSources, bytesWritten, ...counts } = tally;
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
    lineTypeSources,
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
