import { FORMULA_LEAD, isFormulaCell } from './formula.ts';
import { CR, LF, QUOTE, type RowScanner } from './row-scanner.ts';

const APOSTROPHE = 0x27;

/**
 * Where a quoted field's text ends: before its closing quote. A field with text after its closing
 * quote is read to its end, quotes included, which a number never holds: it is treated as a formula.
 */
const quotedEnd = (buf: Buffer, start: number, end: number) =>
  end - 1 > start && buf[end - 1] === QUOTE ? end - 1 : end;

/**
 * Writes a batch's rows into one buffer: each row's bytes as they came, formula cells neutralised,
 * the result cells after the header's last column. Rows are noted first (`neutralise`, while the
 * scanner is on them), then written together.
 */
export class RowWriter {
  readonly lineEnding: Buffer;
  readonly #separator: number;
  /** Cells to neutralise, as triples: where the apostrophe goes, the cell's end, whether to quote it. */
  #neutral = new Int32Array(3 * 4096);
  #neutralLength = 0;

  constructor(separator: number, lineEnding: string) {
    this.#separator = separator;
    this.lineEnding = Buffer.from(lineEnding);
  }

  /** Where the cells noted so far end: a row's `neutralTo`. */
  get noted(): number {
    return this.#neutralLength;
  }

  /** Forgets the cells noted: the batch is written. */
  clear(): void {
    this.#neutralLength = 0;
  }

  /**
   * Notes the scanned row's cells that a spreadsheet would run as formulas (`isFormulaCell`, the one
   * rule); returns the bytes neutralising them adds. A cell gets an apostrophe in front (inside its
   * quotes, if quoted), which spreadsheets show as text; one starting with a line break is also
   * quoted, so that it stays one cell. The phone column too: a phone spelling is never a formula and
   * comes back byte for byte, anything else in it is neutralised like any cell. Only the first byte
   * is looked at for most cells (`FORMULA_LEAD`): the rule is read only for cells starting like one.
   */
  neutralise(buf: Buffer, scanner: RowScanner): number {
    const { starts, ends, fields } = scanner;
    let added = 0;
    for (let k = 0; k < fields; k++) {
      const start = starts[k]!;
      const end = ends[k]!;
      if (start === end) continue;
      const first = buf[start]!;
      if (first !== QUOTE) {
        if (FORMULA_LEAD[first] === 0) continue;
        if (!isFormulaCell(buf, start, end)) continue;
        const quote = first === CR || first === LF ? 1 : 0;
        this.#note(start, end, quote);
        added += quote ? 3 + 2 * (end - start) : 1;
      } else if (
        start + 1 < end &&
        FORMULA_LEAD[buf[start + 1]!] === 1 &&
        isFormulaCell(buf, start + 1, quotedEnd(buf, start, end))
      ) {
        this.#note(start + 1, end, 0);
        added += 1;
      }
    }
    return added;
  }

  #note(at: number, end: number, quote: number): void {
    if (this.#neutralLength + 3 > this.#neutral.length) {
      const grown = new Int32Array(this.#neutral.length * 2);
      grown.set(this.#neutral);
      this.#neutral = grown;
    }
    this.#neutral[this.#neutralLength++] = at;
    this.#neutral[this.#neutralLength++] = end;
    this.#neutral[this.#neutralLength++] = quote;
  }

  /** Writes one row: its bytes, apostrophes before formula cells, and the suffix where it goes. */
  write(
    buf: Buffer,
    out: Buffer,
    at: number,
    start: number,
    end: number,
    insertAt: number,
    padding: number,
    neutralFrom: number,
    neutralTo: number,
    suffix: Buffer,
  ): number {
    const neutral = this.#neutral;
    let from = start;
    let inserted = false;
    for (let k = neutralFrom; k < neutralTo; k += 3) {
      const cell = neutral[k]!;
      if (!inserted && cell > insertAt) {
        at = this.#suffix(out, copy(buf, from, insertAt, out, at), padding, suffix);
        from = insertAt;
        inserted = true;
      }
      at = copy(buf, from, cell, out, at);
      const cellEnd = neutral[k + 1]!;
      if (neutral[k + 2] === 1) {
        out[at++] = QUOTE;
        out[at++] = APOSTROPHE;
        for (let i = cell; i < cellEnd; i++) {
          if (buf[i] === QUOTE) out[at++] = QUOTE;
          out[at++] = buf[i]!;
        }
        out[at++] = QUOTE;
        from = cellEnd;
      } else {
        out[at++] = APOSTROPHE;
        from = cell;
      }
    }
    if (!inserted) {
      at = this.#suffix(out, copy(buf, from, insertAt, out, at), padding, suffix);
      from = insertAt;
    }
    at = copy(buf, from, end, out, at);
    return copy(this.lineEnding, 0, this.lineEnding.length, out, at);
  }

  #suffix(out: Buffer, at: number, padding: number, suffix: Buffer): number {
    for (let i = 0; i < padding; i++) out[at++] = this.#separator;
    return copy(suffix, 0, suffix.length, out, at);
  }
}

// Rows are short: a loop beats Buffer#copy's per-call cost for them.
function copy(from: Buffer, start: number, end: number, to: Buffer, at: number): number {
  if (end - start > 64) return at + from.copy(to, at, start, end);
  for (let i = start; i < end; i++) to[at++] = from[i]!;
  return at;
}
