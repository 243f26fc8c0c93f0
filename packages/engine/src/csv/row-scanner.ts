import { CsvError } from './csv-error.ts';
import type { CsvLineEnding, CsvSeparator } from './dialect.ts';

export const QUOTE = 0x22;
export const LF = 0x0a;
export const CR = 0x0d;

/** Longest row by default: far past any lead row (Excel caps a cell at 32,767 characters). */
export const DEFAULT_MAX_ROW_BYTES = 1 << 20;

/**
 * Finds rows and fields in UTF-8 bytes (RFC 4180: quoted fields hold separators, doubled quotes
 * and line breaks), without decoding: a row's bytes can be copied to the output as they are, and
 * only the cells that matter are turned into strings. Lenient where files are: a quote inside an
 * unquoted field is a character, text after a closing quote belongs to the field, rows may have
 * any number of fields, a CR before an LF is part of the line break.
 */
export class RowScanner {
  readonly separator: number;
  /** Where each field of the last row starts (at its opening quote, if quoted). */
  starts = new Int32Array(64);
  /** Where each field of the last row ends (before its separator or line break). */
  ends = new Int32Array(64);
  /** Fields in the last row. */
  fields = 0;
  /** Where the last row's content ends: before its line break. */
  rowEnd = 0;
  /** The 1-based line the last row starts on: quoted line breaks make rows span lines. */
  line = 0;
  /** After `skip`: whether the row was empty or nothing but separators. */
  blank = false;
  readonly #terminator: number;
  readonly #maxRowBytes: number;
  #nextLine = 1;
  // The first quote at or after the last row scanned, in #quotesIn (its length when none): a row
  // that ends before it has no quoted field.
  #quotesIn: Uint8Array | null = null;
  #nextQuote = 0;

  constructor(separator: CsvSeparator, lineEnding: CsvLineEnding, maxRowBytes = DEFAULT_MAX_ROW_BYTES) {
    this.separator = separator.charCodeAt(0);
    // Files whose lines end in CR alone (old Mac exports) break on CR; all others on LF.
    this.#terminator = lineEnding === '\r' ? CR : LF;
    this.#maxRowBytes = maxRowBytes;
  }

  /** The 1-based line the next row starts on: one past the line breaks scanned so far. */
  get nextLine(): number {
    return this.#nextLine;
  }

  /**
   * Scans the row starting at `start`, and returns where the next one starts; -1 when the row does
   * not end before `end` and more bytes may follow (`final` false). At the end of the input
   * (`final`), a last row without a line break ends at `end`.
   */
  scan(buf: Uint8Array, start: number, end: number, final: boolean): number {
    const separator = this.separator;
    const terminator = this.#terminator;
    // Most rows hold no quote: find the line break natively, then only separators are left to find.
    const lineBreak = this.#plainRowEnd(buf, start, end);
    if (lineBreak !== -1) return this.#plain(buf, start, lineBreak);
    let starts = this.starts;
    let ends = this.ends;
    let field = 0;
    let breaks = 0;
    let i = start;
    for (;;) {
      if (field === starts.length) {
        this.#grow();
        starts = this.starts;
        ends = this.ends;
      }
      starts[field] = i;
      if (i < end && buf[i] === QUOTE) {
        i++;
        for (;;) {
          if (i >= end) return this.#unfinished(start, end, final, true);
          const byte = buf[i]!;
          if (byte === QUOTE) {
            // A quote last in the bytes so far may be the first of a doubled pair.
            if (i + 1 >= end && !final) return this.#unfinished(start, end, final, true);
            if (buf[i + 1] === QUOTE) {
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (byte === terminator) breaks++;
          i++;
        }
      }
      for (;;) {
        if (i >= end) {
          if (!final) return this.#unfinished(start, end, final, false);
          ends[field] = this.#contentEnd(buf, starts[field]!, end);
          this.fields = field + 1;
          this.rowEnd = ends[field]!;
          return this.#finished(start, end, breaks);
        }
        const byte = buf[i]!;
        if (byte === separator) {
          ends[field++] = i++;
          break;
        }
        if (byte === terminator) {
          ends[field] = this.#contentEnd(buf, starts[field]!, i);
          this.fields = field + 1;
          this.rowEnd = ends[field]!;
          return this.#finished(start, i + 1, breaks);
        }
        i++;
      }
    }
  }

  /**
   * `scan` for a reader that needs only where rows end and whether each is `blank`, not its fields
   * (counting records): a row without quotes is found natively, and most rows are known not to be
   * blank from their first byte. The fields are set only for a row with quotes.
   */
  skip(buf: Uint8Array, start: number, end: number, final: boolean): number {
    const lineBreak = this.#plainRowEnd(buf, start, end);
    if (lineBreak === -1) {
      const next = this.scan(buf, start, end, final);
      if (next !== -1) this.blank = this.rowEnd - start === this.fields - 1;
      return next;
    }
    const contentEnd = this.#contentEnd(buf, start, lineBreak);
    let at = start;
    while (at < contentEnd && buf[at] === this.separator) at++;
    this.blank = at === contentEnd;
    return this.#finished(start, lineBreak + 1, 0);
  }

  /** Where the row starting at `start` ends, when it has no quote and ends before `end`; else -1. */
  #plainRowEnd(buf: Uint8Array, start: number, end: number): number {
    if (this.#quotesIn !== buf || this.#nextQuote < start) {
      const quote = buf.indexOf(QUOTE, start);
      this.#quotesIn = buf;
      this.#nextQuote = quote === -1 ? buf.length : quote;
    }
    const lineBreak = buf.indexOf(this.#terminator, start);
    return lineBreak !== -1 && lineBreak < end && lineBreak < this.#nextQuote ? lineBreak : -1;
  }

  /** Scans a row without quotes that ends at `lineBreak`. */
  #plain(buf: Uint8Array, start: number, lineBreak: number): number {
    const separator = this.separator;
    let starts = this.starts;
    let ends = this.ends;
    let field = 0;
    starts[0] = start;
    for (let i = start; i < lineBreak; i++) {
      if (buf[i] !== separator) continue;
      if (field + 1 === starts.length) {
        this.#grow();
        starts = this.starts;
        ends = this.ends;
      }
      ends[field++] = i;
      starts[field] = i + 1;
    }
    ends[field] = this.#contentEnd(buf, starts[field]!, lineBreak);
    this.fields = field + 1;
    this.rowEnd = ends[field]!;
    return this.#finished(start, lineBreak + 1, 0);
  }

  /** The end of a row's last field: before the CR of a CRLF. */
  #contentEnd(buf: Uint8Array, fieldStart: number, end: number): number {
    return this.#terminator === LF && end > fieldStart && buf[end - 1] === CR ? end - 1 : end;
  }

  #finished(start: number, next: number, breaks: number): number {
    if (next - start > this.#maxRowBytes) this.#tooLarge(false);
    this.line = this.#nextLine;
    this.#nextLine += breaks + 1;
    return next;
  }

  #unfinished(start: number, end: number, final: boolean, quoted: boolean): number {
    if (final) {
      throw new CsvError(
        'csv_unclosed_quote',
        `Line ${this.#nextLine}: a quoted field opens in this row and is never closed, so the rest of the file would be one cell`,
        this.#nextLine,
      );
    }
    if (end - start > this.#maxRowBytes) this.#tooLarge(quoted);
    return -1;
  }

  #tooLarge(quoted: boolean): never {
    const limit = `${(this.#maxRowBytes / 2 ** 20).toFixed(this.#maxRowBytes < 2 ** 20 ? 2 : 0)} MB`;
    const why = quoted ? ': a quoted field opens in it and is probably never closed' : '';
    throw new CsvError(
      'csv_row_too_large',
      `Line ${this.#nextLine}: the row is longer than ${limit}${why}`,
      this.#nextLine,
    );
  }

  #grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
  }
}

const decoder = new TextDecoder();

/**
 * UTF-8 bytes as text. Node's Buffer decodes a short slice about a third faster than TextDecoder,
 * which counts on a filter's row per cell; a browser has no Buffer.
 */
function utf8(buf: Uint8Array, start: number, end: number): string {
  return globalThis.Buffer?.isBuffer(buf)
    ? buf.toString('utf8', start, end)
    : decoder.decode(buf.subarray(start, end));
}

/** A field's text: quotes removed and doubled quotes undone; text after a closing quote kept. */
export function fieldText(buf: Uint8Array, start: number, end: number): string {
  if (start >= end || buf[start] !== QUOTE) return utf8(buf, start, end);
  const text = utf8(buf, start + 1, end);
  let value = '';
  let from = 0;
  for (let quote = text.indexOf('"'); quote !== -1; quote = text.indexOf('"', from)) {
    value += text.slice(from, quote);
    if (text[quote + 1] !== '"') return value + text.slice(quote + 1);
    value += '"';
    from = quote + 2;
  }
  return value + text.slice(from);
}

/**
 * Whether a scanned row (`start` to `rowEnd`, `fields` cells) is blank, and left out: an empty line,
 * or a spreadsheet's row of empty cells. Not where the header is expected: a header row of empty
 * cells is still the header (its columns are simply unnamed), so the rows under it are data, not
 * an empty file. A wholly empty line is blank even there.
 */
export function isBlankRow(start: number, rowEnd: number, fields: number, headerExpected: boolean): boolean {
  if (rowEnd - start !== fields - 1) return false;
  return !(headerExpected && fields > 1);
}
