/**
 * The preview of a CSV file's first rows: what the upload wizard and `scrub bulk` show before a
 * file is scrubbed. Plain Uint8Array code with no Node built-ins, part of `@scrub/engine/preview`:
 * a browser reads the first 64 kB of a 1 GB File and previews it without reading the rest.
 * `previewCsv` (the streaming preview of the main entry) collects its rows with the same code.
 */
import { parsePhone } from '../parse-phone.ts';
import { CSV_EMPTY_MESSAGE, CsvError } from './csv-error.ts';
import { type CsvDialect, type CsvSeparator, checkText, detectDialect, encodingOf } from './dialect.ts';
import { fieldText, isBlankRow, RowScanner } from './row-scanner.ts';

/** How much of a file a preview reads: the head that decides the dialect, and rows to spare. */
export const PREVIEW_HEAD_BYTES = 64 * 1024;

export interface CsvPreviewOptions {
  /** Whether the first row is a header. Default true, as the scrubber reads a file. */
  header?: boolean;
  /** Data rows to show. Default 10, as the wizard's preview. */
  rows?: number;
  /** Default: detected from the first lines. */
  separator?: CsvSeparator;
  maxRowBytes?: number;
}

export interface CsvHeadPreviewOptions extends CsvPreviewOptions {
  /**
   * Whether the head is the whole file. Default true. When false, a last row without a line break
   * may have been cut short, and is left out.
   */
  complete?: boolean;
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

/** A file's dialect, and whether its first row looks like a header: a guess, for a wizard to offer. */
export interface CsvSniff extends CsvDialect {
  header: boolean;
}

const DEFAULT_ROWS = 10;
const PHONE_NAME = /phone|mobile|cell|tel/i;
// A cell that is a number of any kind (a count, an amount, a zip code): a header names, it does not count.
const NUMERIC = /^[\s$€£+\-.,()\d]*\d[\s$€£+\-.,()\d%]*$/;

/** The rows of a preview, collected as the scanner finds them: from one head, or from a stream's buffers. */
export class PreviewRows {
  header: string[] | null = null;
  readonly rows: string[][] = [];
  readonly #scanner: RowScanner;
  readonly #wanted: number;
  readonly #hasHeader: boolean;

  constructor(dialect: Pick<CsvDialect, 'separator' | 'lineEnding'>, options: CsvPreviewOptions) {
    this.#scanner = new RowScanner(dialect.separator, dialect.lineEnding, options.maxRowBytes);
    this.#wanted = options.rows ?? DEFAULT_ROWS;
    this.#hasHeader = options.header ?? true;
  }

  get full(): boolean {
    return this.rows.length >= this.#wanted;
  }

  /** Scans whole rows from `buf` until enough are shown; returns the bytes used. */
  step(buf: Uint8Array, final: boolean): number {
    const scanner = this.#scanner;
    let used = 0;
    while (used < buf.length && !this.full) {
      const next = scanner.scan(buf, used, buf.length, final);
      if (next < 0) break;
      // The scrubber's rule: a row of nothing but separators is blank, unless it is the header.
      if (!isBlankRow(used, scanner.rowEnd, scanner.fields, this.#hasHeader && this.header === null)) {
        const cells = Array.from({ length: scanner.fields }, (_, k) =>
          fieldText(buf, scanner.starts[k]!, scanner.ends[k]!),
        );
        if (this.#hasHeader && this.header === null) this.header = cells;
        else this.rows.push(cells);
      }
      used = next;
    }
    return used;
  }

  /** The preview; refuses what `scrubCsv` would refuse from the same rows: empty, a header with no rows. */
  result(dialect: CsvDialect): CsvPreview {
    const { header, rows } = this;
    if (rows.length === 0) {
      if (header !== null) {
        throw new CsvError(
          'csv_header_only',
          `${CSV_EMPTY_MESSAGE}: it has a header row and no rows under it`,
        );
      }
      throw new CsvError('csv_empty', CSV_EMPTY_MESSAGE);
    }
    const columns = (header ?? rows[0]!).length;
    const { encoding, bom, separator, lineEnding } = dialect;
    return {
      encoding,
      bom,
      separator,
      lineEnding,
      header,
      rows,
      columns,
      phoneColumn: guessPhoneColumn(header, rows),
    };
  }
}

/** The head as UTF-8 without its byte-order mark, and how the file is encoded, as `openCsv` reads it. */
function decodeHead(head: string | Uint8Array, complete: boolean) {
  const raw = typeof head === 'string' ? new TextEncoder().encode(head) : head;
  const { encoding, bom } = encodingOf(raw);
  const text =
    encoding === 'utf-8'
      ? raw.subarray(bom ? 3 : 0)
      : // A character cut by the end of a partial head is left out.
        new TextEncoder().encode(new TextDecoder(encoding).decode(raw, { stream: !complete }));
  checkText(raw, text);
  return { encoding, bom, text };
}

/**
 * The first rows of a CSV file from its head: a string, or the first bytes of the file (UTF-8 or
 * UTF-16, as the scrubber reads them). Refuses what `scrubCsv` would refuse from the same rows.
 */
export function previewCsvHead(head: string | Uint8Array, options: CsvHeadPreviewOptions = {}): CsvPreview {
  const complete = options.complete ?? true;
  const { encoding, bom, text } = decodeHead(head, complete);
  const detected = detectDialect(text, complete);
  const dialect = { encoding, bom, ...detected, separator: options.separator ?? detected.separator };
  const rows = new PreviewRows(dialect, options);
  rows.step(text, complete);
  return rows.result(dialect);
}

/** The first rows of a File or Blob, reading only its first `PREVIEW_HEAD_BYTES`. */
export async function previewCsvFile(file: Blob, options: CsvPreviewOptions = {}): Promise<CsvPreview> {
  const head = new Uint8Array(await file.slice(0, PREVIEW_HEAD_BYTES).arrayBuffer());
  return previewCsvHead(head, { ...options, complete: file.size <= PREVIEW_HEAD_BYTES });
}

/**
 * How a file is written, from its head, and whether its first row looks like a header: none of
 * its cells is a phone number or any other number. The scrubber takes a header as given (default:
 * there is one); this is the guess a wizard offers.
 */
export function sniffCsv(head: string | Uint8Array, options: { complete?: boolean } = {}): CsvSniff {
  const { encoding, bom, separator, lineEnding, rows } = previewCsvHead(head, {
    ...options,
    header: false,
    rows: 1,
  });
  const header = rows[0]!.every((cell) => !NUMERIC.test(cell) && !parsePhone(cell).ok);
  return { encoding, bom, separator, lineEnding, header };
}

/**
 * The column where most of the rows hold a number parsePhone reads (at least half), a phone-like
 * name breaking ties; failing that, the first column with a phone-like name.
 */
export function guessPhoneColumn(header: string[] | null, rows: string[][]): number | null {
  const columns = (header ?? rows[0] ?? []).length;
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
