import type { CsvLineEnding, CsvSeparator } from './dialect.ts';
import { CR, DEFAULT_MAX_ROW_BYTES, LF, QUOTE } from './row-scanner.ts';

/** A piece of a file to scrub on its own: whole records, from one's start. */
export interface CsvPart {
  bytes: Buffer;
  /** The file's end: its last row may lack a line break, and a quote left open is an error. */
  last: boolean;
}

export interface CsvPartSizes {
  /** The first part: small, since it is scrubbed before the others can start (it holds the header). */
  first: number;
  /** Every other part: large enough that handing it to a thread costs little beside scrubbing it. */
  rest: number;
}

/**
 * Where records start, for cutting a file into parts: the first line break at or after a point
 * that is outside every quoted field, by the row scanner's rules (`RowScanner`): a quote opens a
 * quoted field only as the first byte of a field (the row's first, or after a separator), a doubled
 * quote inside one is a quote, and the next quote closes it; any other quote is a character. Only
 * the quotes are visited (found natively), so a part costs its quotes, not its bytes.
 *
 * The scanner then checks each cut: a part that does not end where a record ends fails its scrub
 * (`Scrubber.part`), so a cut here can never scrub a row in two halves.
 */
export class RecordSplitter {
  readonly #separator: number;
  readonly #terminator: number;
  /** Quotes before this offset of the part are accounted for. */
  #scanned = 0;
  #quoted = false;

  constructor(separator: CsvSeparator, lineEnding: CsvLineEnding) {
    this.#separator = separator.charCodeAt(0);
    this.#terminator = lineEnding === '\r' ? CR : LF;
  }

  /** A new part starts at offset 0 (a record's start). */
  reset(): void {
    this.#scanned = 0;
    this.#quoted = false;
  }

  /**
   * Where the first record at or after `from` starts in the part's bytes so far (`bytes`, which
   * start a record); -1 when none does yet. Called again with more bytes, it goes on from where it was.
   */
  cut(bytes: Buffer, from: number): number {
    let at = Math.max(from - 1, this.#scanned);
    for (;;) {
      const lineBreak = bytes.indexOf(this.#terminator, at);
      if (lineBreak === -1) return -1;
      this.#advance(bytes, lineBreak);
      if (!this.#quoted) return lineBreak + 1;
      at = lineBreak + 1;
    }
  }

  /** Follows the quotes before `end` (a line break: every quote before it has a byte after it). */
  #advance(bytes: Buffer, end: number): void {
    while (this.#scanned < end) {
      const quote = bytes.indexOf(QUOTE, this.#scanned);
      if (quote === -1 || quote >= end) {
        this.#scanned = end;
        return;
      }
      if (this.#quoted) {
        const doubled = bytes[quote + 1] === QUOTE;
        this.#scanned = quote + (doubled ? 2 : 1);
        this.#quoted = doubled;
      } else {
        const before = quote === 0 ? this.#terminator : bytes[quote - 1];
        this.#quoted = before === this.#separator || before === this.#terminator;
        this.#scanned = quote + 1;
      }
    }
  }
}

/**
 * A file's bytes (UTF-8, as `openCsv` hands them) cut into parts at records' starts, each about its
 * size. A part that finds no record start within `maxRowBytes` past its size holds a row too long
 * for the scanner, which refuses it (`csv_row_too_large`): it is handed over uncut, and it is the
 * last part.
 */
export async function* partsOf(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  splitter: RecordSplitter,
  sizes: CsvPartSizes,
  maxRowBytes = DEFAULT_MAX_ROW_BYTES,
): AsyncGenerator<CsvPart> {
  let size = sizes.first;
  // Each part is a buffer of its own, moved to the thread that scrubs it.
  let part = Buffer.allocUnsafeSlow(size + (1 << 16));
  let length = 0;
  for await (const chunk of chunks) {
    if (length + chunk.length > part.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(length + chunk.length, size) + (1 << 16));
      part.copy(grown, 0, 0, length);
      part = grown;
    }
    part.set(chunk, length);
    length += chunk.length;
    while (length >= size) {
      const cut = splitter.cut(part.subarray(0, length), size);
      if (cut === -1) {
        if (length > size + maxRowBytes) {
          yield { bytes: part.subarray(0, length), last: false };
          return;
        }
        break;
      }
      const rest = length - cut;
      const next = Buffer.allocUnsafeSlow(Math.max(sizes.rest, rest) + (1 << 16));
      part.copy(next, 0, cut, length);
      yield { bytes: part.subarray(0, cut), last: false };
      part = next;
      length = rest;
      size = sizes.rest;
      splitter.reset();
    }
  }
  yield { bytes: part.subarray(0, length), last: true };
}
