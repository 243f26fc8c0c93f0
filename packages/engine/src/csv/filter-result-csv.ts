import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { findColumnByName } from './column-name.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvInput, openCsv } from './csv-input.ts';
import { RowBuffer } from './row-buffer.ts';
import { fieldText, RowScanner } from './row-scanner.ts';
import { DNC_COLUMN, LINE_TYPE_COLUMN, OPTIONAL_COLUMNS } from './scrub-options.ts';

/** The export page's filters; `all`, empty or absent means no filter on that column. */
export interface ResultFilter {
  /** Rows whose Line Type cell contains any of these, case-insensitive: `['mobile', 'landline']`. */
  lineTypes?: readonly string[];
  /** Rows whose DNC cell contains this: `'0'` clean, `'1'` on a list. */
  dnc?: string;
  /** Rows whose Callable Now cell holds this: `'1'` inside the calling window, `'0'` outside. */
  callableNow?: string;
}

export interface FilterResultCsvOptions extends ResultFilter {
  maxRowBytes?: number;
  signal?: AbortSignal;
}

export interface FilterResultCsvResult {
  /** Data rows read (not the header, not blank lines). */
  rows: number;
  /** Data rows written. */
  kept: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const wanted = (value: string | undefined) => {
  const text = value?.trim().toLowerCase() ?? '';
  return text === '' || text === 'all' ? null : text;
};

/**
 * Streams a result file keeping the header and the rows that match, as the seed's export page
 * filters: case-insensitive substring on the `Line Type`, `DNC` and (asked for) `Callable Now`
 * columns (the last of each name, the one scrubbing added, should a file have been scrubbed twice),
 * several line types OR'ed, the filters AND'ed. Kept rows are copied byte for byte. Ends `output` when done.
 */
export async function filterResultCsv(
  input: CsvInput,
  output: Writable,
  options: FilterResultCsvOptions,
): Promise<FilterResultCsvResult> {
  const lineTypes = (options.lineTypes ?? []).map(wanted);
  const anyLineType = lineTypes.length === 0 || lineTypes.includes(null);
  const lineTypeValues = lineTypes.filter((value) => value !== null);
  const dnc = wanted(options.dnc);
  const callableNow = wanted(options.callableNow);
  const counts = { rows: 0, kept: 0 };

  await pipeline(
    async function* () {
      const opened = await openCsv(input);
      const scanner = new RowScanner(opened.separator, opened.lineEnding, options.maxRowBytes);
      const rows = new RowBuffer();
      let lineTypeColumn = -1;
      let dncColumn = -1;
      let callableNowColumn = -1;
      let header = true;
      let prefix = opened.bom ? UTF8_BOM : null;

      const matches = (buf: Buffer, column: number, values: readonly string[]) => {
        if (column >= scanner.fields) return false;
        const cell = fieldText(buf, scanner.starts[column]!, scanner.ends[column]!).toLowerCase();
        return values.some((value) => cell.includes(value));
      };
      const columnOf = (buf: Buffer, name: string) => {
        const names = Array.from({ length: scanner.fields }, (_, k) =>
          fieldText(buf, scanner.starts[k]!, scanner.ends[k]!),
        );
        const found = findColumnByName(names, name, { last: true });
        if (found !== -1) return found;
        throw new CsvError(
          'csv_column_not_found',
          `No "${name}" column in the header row: is this a scrubbed result file?`,
          scanner.line,
        );
      };

      /** Copies the step's header and matching rows; returns the bytes used and what to write. */
      const step = (buf: Buffer, final: boolean): [number, Buffer] => {
        options.signal?.throwIfAborted();
        const out = Buffer.allocUnsafe((prefix?.length ?? 0) + buf.length);
        let at = prefix ? prefix.copy(out) : 0;
        prefix = null;
        let used = 0;
        while (used < buf.length) {
          const next = scanner.scan(buf, used, buf.length, final);
          if (next < 0) break;
          let keep = scanner.rowEnd - used !== scanner.fields - 1;
          if (keep && header) {
            if (!anyLineType) lineTypeColumn = columnOf(buf, LINE_TYPE_COLUMN);
            if (dnc !== null) dncColumn = columnOf(buf, DNC_COLUMN);
            if (callableNow !== null) callableNowColumn = columnOf(buf, OPTIONAL_COLUMNS.callable_now);
            header = false;
          } else if (keep) {
            counts.rows++;
            keep =
              (anyLineType || matches(buf, lineTypeColumn, lineTypeValues)) &&
              (dnc === null || matches(buf, dncColumn, [dnc])) &&
              (callableNow === null || matches(buf, callableNowColumn, [callableNow]));
            if (keep) counts.kept++;
          }
          if (keep) at += buf.copy(out, at, used, next);
          used = next;
        }
        return [used, out.subarray(0, at)];
      };

      for await (const chunk of opened.chunks) {
        const buf = rows.add(chunk);
        if (buf === null) continue;
        const [used, out] = step(buf, false);
        rows.carry(buf, used);
        if (out.length > 0) yield out;
      }
      const [, out] = step(rows.finish(), true);
      if (header) throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
      if (out.length > 0) yield out;
    },
    output,
    options.signal ? { signal: options.signal } : {},
  );
  return counts;
}
