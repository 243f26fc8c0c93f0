import { findColumnByName } from './column-name.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvInput, openCsv } from './csv-input.ts';
import type { CsvLineEnding, CsvSeparator } from './dialect.ts';
import { RowBuffer } from './row-buffer.ts';
import { fieldText, RowScanner } from './row-scanner.ts';
import { DNC_COLUMN, LINE_TYPE_COLUMN } from './scrub-options.ts';

/**
 * A result file's page index: where every `every`th data row starts in the stored bytes, and each
 * row's line type and DNC cell in one character each. With it a page of rows is one ranged read
 * of the file, whatever its size, and a filtered page is found without reading the file.
 */
export interface ResultIndex {
  version: 1;
  separator: CsvSeparator;
  lineEnding: CsvLineEnding;
  /** The header row's names. */
  header: string[];
  /** Data rows: not the header, not blank lines. */
  rows: number;
  every: number;
  /** The byte offset of data row `k * every` (0-based) for each k, then the file's length. */
  offsets: number[];
  /** One character a data row: its line type's code (`RESULT_LINE_TYPE_CODES`), `?` for any other. */
  lineTypes: string;
  /** One character a data row: `0` clean, `1` on a do-not-call list, `-` anything else (unchecked, empty). */
  dnc: string;
}

/** The line types of a result, by the one character the index keeps for each. */
export const RESULT_LINE_TYPE_CODES: Readonly<Record<string, string>> = {
  mobile: 'm',
  landline: 'l',
  voip: 'v',
  toll_free: 't',
  invalid: 'i',
  unknown_geographic: 'u',
};

const Q = '?'.charCodeAt(0);
const DASH = '-'.charCodeAt(0);
const LINE_TYPE_BYTES = new Map(Object.entries(RESULT_LINE_TYPE_CODES).map(([k, v]) => [k, v.charCodeAt(0)]));

/** Bytes grown as they come: one a row. */
class ByteList {
  bytes = new Uint8Array(4096);
  length = 0;
  push(byte: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = byte;
  }
  text(): string {
    return Buffer.from(this.bytes.buffer, 0, this.length).toString('latin1');
  }
}

/**
 * Reads a UTF-8 result file once and makes its page index. Rows are found as the scrubber writes
 * them (quoted line breaks stay in their row); blank lines are left out, as the download's filters do.
 */
export async function indexResultCsv(
  input: CsvInput,
  { every = 100, signal }: { every?: number; signal?: AbortSignal } = {},
): Promise<ResultIndex> {
  const opened = await openCsv(input);
  if (opened.encoding !== 'utf-8')
    throw new CsvError('csv_not_text', 'A result file is UTF-8: this one is not a result file.');
  const scanner = new RowScanner(opened.separator, opened.lineEnding);
  const buffer = new RowBuffer();
  const offsets: number[] = [];
  const lineTypes = new ByteList();
  const dnc = new ByteList();
  let header: string[] | null = null;
  let lineTypeColumn = -1;
  let dncColumn = -1;
  let rows = 0;
  // The stored file's offset of the bytes being scanned: past the byte-order mark, if any.
  let base = opened.bom ? 3 : 0;

  const cell = (buf: Buffer, column: number) =>
    column < 0 || column >= scanner.fields
      ? ''
      : fieldText(buf, scanner.starts[column]!, scanner.ends[column]!).trim().toLowerCase();

  const step = (buf: Buffer, final: boolean): number => {
    signal?.throwIfAborted();
    let used = 0;
    while (used < buf.length) {
      const next = scanner.scan(buf, used, buf.length, final);
      if (next < 0) break;
      if (scanner.rowEnd - used === scanner.fields - 1) {
        // Blank: left out.
      } else if (header === null) {
        header = Array.from({ length: scanner.fields }, (_, k) =>
          fieldText(buf, scanner.starts[k]!, scanner.ends[k]!),
        );
        lineTypeColumn = findColumnByName(header, LINE_TYPE_COLUMN, { last: true });
        dncColumn = findColumnByName(header, DNC_COLUMN, { last: true });
      } else {
        if (rows % every === 0) offsets.push(base + used);
        rows++;
        lineTypes.push(LINE_TYPE_BYTES.get(cell(buf, lineTypeColumn)) ?? Q);
        const dncCell = cell(buf, dncColumn);
        dnc.push(dncCell === '0' || dncCell === '1' ? dncCell.charCodeAt(0) : DASH);
      }
      used = next;
    }
    base += used;
    return used;
  };

  for await (const chunk of opened.chunks) {
    const buf = buffer.add(chunk);
    if (buf === null) continue;
    buffer.carry(buf, step(buf, false));
  }
  step(buffer.finish(), true);
  if (header === null) throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
  offsets.push(base);
  return {
    version: 1,
    separator: opened.separator,
    lineEnding: opened.lineEnding,
    header,
    rows,
    every,
    offsets,
    lineTypes: lineTypes.text(),
    dnc: dnc.text(),
  };
}

/** The data rows in `bytes` (whole rows of a result file, as a ranged read of its index gives), as cells. */
export function readResultRows(bytes: Uint8Array, index: Pick<ResultIndex, 'separator' | 'lineEnding'>) {
  const scanner = new RowScanner(index.separator, index.lineEnding);
  const rows: string[][] = [];
  let used = 0;
  while (used < bytes.length) {
    const next = scanner.scan(bytes, used, bytes.length, true);
    if (next < 0) break;
    if (scanner.rowEnd - used !== scanner.fields - 1) {
      rows.push(
        Array.from({ length: scanner.fields }, (_, k) =>
          fieldText(bytes, scanner.starts[k]!, scanner.ends[k]!),
        ),
      );
    }
    used = next;
  }
  return rows;
}
