import { DisconnectList, type SharedDisconnectList } from '../reassigned/disconnect-list.ts';
import { findColumnByName } from './column-name.ts';
import { CsvError } from './csv-error.ts';

/** The result column a job with a consent-date column gets, after the other added columns. */
export const REASSIGNED_COLUMN = 'Reassigned';

/** What a job asks of its reassigned-numbers column. */
export interface ReassignedOption {
  /** The column holding each row's consent date: its header name or its 0-based index. */
  consentColumn: string | number;
  /** The operator's imported disconnections; null: none imported, every cell says no data. */
  disconnects: DisconnectList | null;
}

/** A row's answer: 0 not disconnected since consent, 1 disconnected since, 2 no data (empty cell). */
export const REASSIGNED_NO = 0;
export const REASSIGNED_YES = 1;
export const REASSIGNED_NO_DATA = 2;

/**
 * The consent-date column's index, by name in the header or by index within the first row.
 * Throws the `CsvError` a file is refused with.
 */
export function consentColumnOf(
  consentColumn: string | number,
  names: readonly string[] | null,
  fields: number,
  line: number,
): number {
  if (typeof consentColumn === 'number') {
    if (consentColumn < fields) return consentColumn;
    throw new CsvError(
      'csv_column_out_of_range',
      `Consent-date column ${consentColumn} is out of range: the first row has ${fields} columns`,
      line,
    );
  }
  const found = names === null ? -1 : findColumnByName(names, consentColumn);
  if (found !== -1) return found;
  throw new CsvError(
    'csv_column_not_found',
    names === null
      ? `The consent-date column is given by name (${JSON.stringify(consentColumn)}), but the file has no header row: give its number instead`
      : `No consent-date column ${JSON.stringify(consentColumn.trim())} in the header row`,
    line,
  );
}

/** A valid number's answer for a consent day (NaN when the row's consent cell is not a date). */
export function reassignedStateOf(
  disconnects: DisconnectList | null,
  number: number,
  consentDay: number,
): number {
  const answer = disconnects?.reassignedSince(number, consentDay) ?? null;
  return answer === null ? REASSIGNED_NO_DATA : answer ? REASSIGNED_YES : REASSIGNED_NO;
}

/** The Reassigned cell, each with the separator in front: `0`, `1`, or empty for no data. */
export class ReassignedCells {
  readonly header: Buffer;
  /** The most bytes a row's cell (or the header's name) takes: a result row's or the header's bound. */
  readonly longest: number;
  /** By answer (`REASSIGNED_NO`, `_YES`, `_NO_DATA`): a row's tail column (`tailCells`). */
  readonly cells: readonly Buffer[];

  constructor(sep: string) {
    this.header = Buffer.from(`${sep}${REASSIGNED_COLUMN}`);
    this.cells = ['0', '1', ''].map((cell) => Buffer.from(`${sep}${cell}`));
    this.longest = Math.max(this.header.length, ...this.cells.map((cell) => cell.length));
  }
}

/** `ReassignedOption` as posted to a worker thread: the disconnections' buffer is shared, not copied. */
export interface SharedReassignedOption {
  consentColumn: string | number;
  disconnects: SharedDisconnectList | null;
}

export function reassignedToShared(option: ReassignedOption): SharedReassignedOption {
  return { consentColumn: option.consentColumn, disconnects: option.disconnects?.toShared() ?? null };
}

export function reassignedFromShared(shared: SharedReassignedOption): ReassignedOption {
  const { consentColumn, disconnects } = shared;
  return { consentColumn, disconnects: disconnects === null ? null : new DisconnectList(disconnects) };
}
