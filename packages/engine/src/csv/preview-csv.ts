import { parsePhone } from '../parse-phone.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvDialect, type CsvInput, type CsvSeparator, openCsv } from './csv-input.ts';
import { fieldText, RowBuffer, RowScanner } from './row-scanner.ts';

export interface CsvPreviewOptions {
  /** Whether the first row is a header. Default true. */
  header?: boolean;
  /** Data rows to show. Default 10, as the wizard's preview. */
  rows?: number;
  /** Default: detected from the first lines. */
  separator?: CsvSeparator;
  maxRowBytes?: number;
}

/** What the upload wizard and `scrub bulk` show before a file is scrubbed. */
export interface CsvPreview extends CsvDialect {
  /** The header's names as written; null without a header. */
  header: string[] | null;
  /** The first data rows, each cell's text (quotes undone). Blank lines are left out. */
  rows: string[][];
  /** Columns of the header (of the first row, without one). */
  columns: number;
  /** The column most likely to hold the phone numbers, to offer first; null when none looks like it. */
  phoneColumn: number | null;
}

const DEFAULT_ROWS = 10;
const PHONE_NAME = /phone|mobile|cell|tel/i;

/**
 * Reads the start of a file (only as much as the rows shown take, then closes the input): its
 * encoding, separator, line break, header and first rows. Refuses what `scrubCsv` would refuse
 * from the same rows: not text, empty, a header with no rows.
 */
export async function previewCsv(input: CsvInput, options: CsvPreviewOptions = {}): Promise<CsvPreview> {
  const wanted = options.rows ?? DEFAULT_ROWS;
  const hasHeader = options.header ?? true;
  const opened = await openCsv(input, options.separator);
  const scanner = new RowScanner(opened.separator, opened.lineEnding, options.maxRowBytes);
  const buffer = new RowBuffer();
  let header: string[] | null = null;
  const rows: string[][] = [];

  const step = (buf: Buffer, final: boolean): number => {
    let used = 0;
    while (used < buf.length && rows.length < wanted) {
      const next = scanner.scan(buf, used, buf.length, final);
      if (next < 0) break;
      if (scanner.rowEnd - used !== scanner.fields - 1) {
        const cells = Array.from({ length: scanner.fields }, (_, k) =>
          fieldText(buf, scanner.starts[k]!, scanner.ends[k]!),
        );
        if (hasHeader && header === null) header = cells;
        else rows.push(cells);
      }
      used = next;
    }
    return used;
  };

  for await (const chunk of opened.chunks) {
    const buf = buffer.add(chunk);
    if (buf !== null) buffer.carry(buf, step(buf, false));
    // Leaving the loop closes the input: a preview never reads the rest of a large file.
    if (rows.length >= wanted) break;
  }
  if (rows.length < wanted) step(buffer.finish(), true);
  if (rows.length === 0) {
    if (header !== null) {
      throw new CsvError('csv_header_only', `${CSV_EMPTY_MESSAGE}: it has a header row and no rows under it`);
    }
    throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
  }
  const columns = (header ?? rows[0]!).length;
  const { encoding, bom, separator, lineEnding } = opened;
  return {
    encoding,
    bom,
    separator,
    lineEnding,
    header,
    rows,
    columns,
    phoneColumn: guessPhoneColumn(header, rows, columns),
  };
}

/**
 * The column where most of the rows shown hold a number parsePhone reads (at least half), a
 * phone-like name breaking ties; failing that, the first column with a phone-like name.
 */
function guessPhoneColumn(header: string[] | null, rows: string[][], columns: number): number | null {
  let best: number | null = null;
  let bestScore = 0;
  for (let column = 0; column < columns; column++) {
    const read = rows.filter((row) => {
      const cell = row[column];
      return cell !== undefined && parsePhone(cell).ok;
    }).length;
    const named = PHONE_NAME.test(header?.[column] ?? '');
    const score = read * 2 + (named ? 1 : 0);
    if (read * 2 >= rows.length && score > bestScore) {
      best = column;
      bestScore = score;
    }
  }
  if (best !== null || header === null) return best;
  const named = header.findIndex((name) => PHONE_NAME.test(name));
  return named === -1 ? null : named;
}
