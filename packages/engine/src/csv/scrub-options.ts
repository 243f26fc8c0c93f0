import type { ExchangeData } from '../classify.ts';
import type { DncSet } from '../dnc/set.ts';
import type { CarrierOption } from './carrier-cells.ts';
import type { CsvSeparator } from './dialect.ts';
import type { ReassignedOption } from './reassigned-cells.ts';

/** The columns a result file adds, after the header's last column. */
export const LINE_TYPE_COLUMN = 'Line Type';
export const DNC_COLUMN = 'DNC';

/**
 * Optional columns after DNC, in this order whatever order they are asked in: the area code's
 * time zones (IANA, space-separated), whether the calling window (08:00-21:00 local, in every
 * zone) is open at the job's evaluation time (1, 0, or empty when it cannot be told), and what
 * the line type rests on (`LineTypeSource`: `exchange`, `thousands_block`..., empty when nothing
 * gave the number a line type).
 */
export const OPTIONAL_COLUMNS = {
  timezone: 'Time Zone',
  callable_now: 'Callable Now',
  line_type_source: 'Line Type Source',
} as const;
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

/** The header of an operator list's column: `List: litigators` for the list `list:litigators`. */
export function listColumnName(listName: string): string {
  return `List: ${listName.replace(/^list:/, '')}`;
}

export interface ScrubCsvOptions extends CountCsvOptions {
  /** Optional columns to add after DNC (`OPTIONAL_COLUMNS`); default none: the file is as before. */
  columns?: readonly OptionalColumn[];
  /**
   * Operator lists (`list:<name>`, such as known litigators) to flag rows with: one column each,
   * last, in the set's order (`listColumnName`): 1 on the list, 0 a valid number not on it, empty
   * for an invalid number on none. They never change the DNC column.
   */
  lists?: DncSet;
  /** When `callable_now` is evaluated, in ms since the epoch; default when the scrub starts. */
  evaluatedAt?: number;
  /** A consent-date column: adds `Reassigned` after the other added columns (`reassigned-cells.ts`). */
  reassigned?: ReassignedOption;
  /**
   * Carrier lookups the service made: a number one gave a line type has it (Line Type Source
   * `carrier_lookup`), and a `Ported` column comes last (`carrier-cells.ts`).
   */
  carrier?: CarrierOption;
}
