/**
 * How a CSV file is written, read from its first bytes: encoding, byte-order mark, separator and
 * line break, and whether it is text at all. Plain Uint8Array code with no Node built-ins: the
 * scrubber (`openCsv`) and the browser-safe preview entry (`@scrub/engine/preview`) share it, so a
 * preview reads a file exactly as the scrubber will.
 */
import { CsvError } from './csv-error.ts';

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';
export type CsvSeparator = ',' | ';' | '\t';
export type CsvLineEnding = '\r\n' | '\n' | '\r';

/** How a file is written, as read from its first lines. */
export interface CsvDialect {
  encoding: CsvEncoding;
  /** Whether the file starts with a byte-order mark. */
  bom: boolean;
  /** Comma, semicolon or tab: the most frequent outside quotes in the first lines. */
  separator: CsvSeparator;
  /** The file's first line break; `\r\n` when it has none. */
  lineEnding: CsvLineEnding;
}

const DIALECT_LINES = 20;
// Share of the head that says "not text": control characters no text file holds, or bytes that are
// not UTF-8 (a Latin-1 export has a few, one per accented letter; compressed data has mostly those).
const MAX_CONTROL_SHARE = 0.01;
const MAX_INVALID_UTF8_SHARE = 0.25;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SEPARATORS: readonly CsvSeparator[] = [',', ';', '\t'];

const SAVE_AS_CSV = 'save it as CSV (in Excel: File > Save As > CSV UTF-8) and upload that';
const MAGIC: readonly { bytes: readonly number[]; message: string }[] = [
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    message: `This is an Excel workbook (.xlsx) or a zip archive, not a CSV file: ${SAVE_AS_CSV}`,
  },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0],
    message: `This is an Excel 97-2003 workbook (.xls), not a CSV file: ${SAVE_AS_CSV}`,
  },
  { bytes: [0x25, 0x50, 0x44, 0x46], message: 'This is a PDF document, not a CSV file' },
  {
    bytes: [0x1f, 0x8b],
    message: 'This is a gzip archive, not a CSV file: unpack it and upload the CSV inside',
  },
];
const NOT_TEXT = `This file is not UTF-8 or UTF-16 text (it holds binary data), so it is not a CSV file: ${SAVE_AS_CSV}`;

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);

/** The encoding, from the byte-order mark, or from the zero bytes of BOM-less UTF-16 text. */
export function encodingOf(head: Uint8Array): { encoding: CsvEncoding; bom: boolean } {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', bom: true };
  if (startsWith(head, [0xff, 0xfe])) return { encoding: 'utf-16le', bom: true };
  if (startsWith(head, [0xfe, 0xff])) return { encoding: 'utf-16be', bom: true };
  // Latin text in UTF-16 has a zero in every other byte; UTF-8 text has none at all.
  const pairs = Math.min(head.length, 1024) >> 1;
  let zeroHigh = 0;
  let zeroLow = 0;
  for (let i = 0; i < pairs; i++) {
    const first = head[2 * i]!;
    const second = head[2 * i + 1]!;
    if (first !== 0 && second === 0) zeroHigh++;
    else if (first === 0 && second !== 0) zeroLow++;
  }
  if (pairs >= 2 && zeroHigh >= pairs * 0.7) return { encoding: 'utf-16le', bom: false };
  if (pairs >= 2 && zeroLow >= pairs * 0.7) return { encoding: 'utf-16be', bom: false };
  return { encoding: 'utf-8', bom: false };
}

/** Bytes that start no valid UTF-8 sequence; a sequence cut by the end of `bytes` is not counted. */
function invalidUtf8Bytes(bytes: Uint8Array): number {
  let invalid = 0;
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
    let valid = length > 0;
    for (let k = 1; valid && k < length && i + k < bytes.length; k++) valid = (bytes[i + k]! & 0xc0) === 0x80;
    if (valid) {
      i += length;
    } else {
      invalid++;
      i++;
    }
  }
  return invalid;
}

/** Refuses what is not text: known binary formats by their first bytes, then by what the head holds. */
export function checkText(raw: Uint8Array, text: Uint8Array): void {
  for (const { bytes, message } of MAGIC)
    if (startsWith(raw, bytes)) throw new CsvError('csv_not_text', message);
  if (text.indexOf(0) !== -1) throw new CsvError('csv_not_text', NOT_TEXT);
  let controls = 0;
  for (const byte of text) {
    if (byte < 0x20 && byte !== 0x09 && byte !== LF && byte !== CR && byte !== 0x0c && byte !== 0x1a)
      controls++;
  }
  if (
    controls > text.length * MAX_CONTROL_SHARE ||
    invalidUtf8Bytes(text) > text.length * MAX_INVALID_UTF8_SHARE
  ) {
    throw new CsvError('csv_not_text', NOT_TEXT);
  }
}

/**
 * The separator most frequent outside quotes in the first lines (ties go to comma, then semicolon),
 * comma when there is none (a file of one column); and the first line break outside quotes.
 */
export function detectDialect(
  head: Uint8Array,
  complete: boolean,
): Pick<CsvDialect, 'separator' | 'lineEnding'> {
  const counts = [0, 0, 0];
  let lineEnding: CsvLineEnding | null = null;
  let lines = 0;
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < head.length && lines < DIALECT_LINES; i++) {
    const byte = head[i]!;
    if (quoted) {
      if (byte !== QUOTE) continue;
      if (head[i + 1] === QUOTE) i++;
      else quoted = false;
      continue;
    }
    if (byte === QUOTE && fieldStart) {
      quoted = true;
      fieldStart = false;
      continue;
    }
    const separator = byte === 0x2c ? 0 : byte === 0x3b ? 1 : byte === 0x09 ? 2 : -1;
    if (separator !== -1) {
      counts[separator]!++;
      fieldStart = true;
    } else if (byte === LF || byte === CR) {
      if (lineEnding === null) {
        if (byte === LF) lineEnding = '\n';
        else if (head[i + 1] === LF) lineEnding = '\r\n';
        // A CR that ends a head cut short may be followed by its LF.
        else lineEnding = i + 1 < head.length || complete ? '\r' : '\r\n';
      }
      if (byte === CR && head[i + 1] === LF) i++;
      lines++;
      fieldStart = true;
    } else {
      fieldStart = false;
    }
  }
  let best = 0;
  for (let i = 1; i < counts.length; i++) if (counts[i]! > counts[best]!) best = i;
  return { separator: SEPARATORS[best]!, lineEnding: lineEnding ?? '\r\n' };
}
