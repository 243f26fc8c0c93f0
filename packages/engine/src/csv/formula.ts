/**
 * The one rule for cells a spreadsheet would run as a formula: result files (`scrubCsv`), the
 * CLI's CSV output and the dashboard's previews all use it, so that a cell is treated alike
 * everywhere. Plain code, no Node built-ins: part of the browser-safe `@scrub/engine/preview`.
 */

const PLUS = 0x2b;
const MINUS = 0x2d;
/** The first byte of a full-width character's UTF-8 (`＝` is EF BC 9D). */
const FULL_WIDTH_LEAD = 0xef;

/**
 * The first bytes (or UTF-16 units below 256) a formula cell can start with: `=`, `@`, `+`, `-`, a
 * tab, a line break or NUL (OWASP's and ASVS's list), and the lead byte of the full-width `＝＋－＠`.
 * A cell starting with anything else is data after one look-up: the hot path on a 1M-row file.
 */
export const FORMULA_LEAD = new Uint8Array(256);
for (const char of '=@+-\t\r\n\u0000') FORMULA_LEAD[char.charCodeAt(0)] = 1;
FORMULA_LEAD[FULL_WIDTH_LEAD] = 1;

/** Full-width `＝＋－＠`: some spreadsheets read them as their ASCII forms. */
const FULL_WIDTH = new Set([0xff1d, 0xff0b, 0xff0d, 0xff20]);

// What may follow a leading + or - in a number as people write one: `+1 (201) 555-0123`, `-42.50`,
// `+49 30/1234567`. Without letters or other symbols such a cell can compute arithmetic at most: it
// calls nothing.
const NUMBER_CHAR = new Uint8Array(128);
for (const char of '0123456789 ()+-./') NUMBER_CHAR[char.charCodeAt(0)] = 1;

// What follows the sign in a phone number with more than a number's characters: spaces of any
// kind (a no-break space pasted from a web page) and an extension after the number (`x12`,
// `ext. 12`, `#12`).
const PHONE_REST = /^[\s\d()./+-]*(?:(?<=[\d\s])(?:x|ext\.?|extn\.?|extension|#)\s*\d+\s*)?$/i;

/**
 * Whether a spreadsheet would run the cell as a formula: it starts with `=`, `@` or a full-width
 * `＝＋－＠`, with a tab, a line break or NUL (OWASP's CSV injection list: spreadsheets skip them), or
 * with `+` or `-` followed by more than a number's or a phone number's characters. `+1 201 555 0123`, `+1 (201) 555-0123 ext. 12` and `-42.50` are data;
 * `+cmd|calc`, `-2+A1`, `=1+2`, `\tnote` and `\t=1+2` are formulas. The same rule holds in every
 * column, the phone column included. Reads a string, or the UTF-8 bytes `cell[start..end)` (a byte of
 * a non-ASCII character is never a number's, as its character is not: both forms give the same answer).
 */
export function isFormulaCell(cell: string | Uint8Array, start = 0, end = cell.length): boolean {
  if (start >= end) return false;
  const text = typeof cell === 'string';
  const lead = text ? cell.charCodeAt(start) : cell[start]!;
  if (lead > 0xff) return FULL_WIDTH.has(lead);
  if (FORMULA_LEAD[lead] === 0) return false;
  if (lead === FULL_WIDTH_LEAD) return !text && isFullWidthSign(cell, start, end);
  if (lead !== PLUS && lead !== MINUS) return true;
  const at = (i: number) => (text ? cell.charCodeAt(i) : cell[i]!);
  for (let i = start + 1; i < end; i++) {
    const next = at(i);
    if (next < 128 && NUMBER_CHAR[next] === 1) continue;
    // Anything else: data only as a phone number's spaces and extension.
    return !PHONE_REST.test(rest(cell, start + 1, end));
  }
  return false;
}

/** Whether UTF-8 bytes start with full-width `＝＋－＠` (EF BC 9D, 8B, 8D; EF BC A0). */
function isFullWidthSign(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start < 3 || bytes[start + 1] !== 0xbc) return false;
  const last = bytes[start + 2]!;
  return last === 0x9d || last === 0x8b || last === 0x8d || last === 0xa0;
}

/** One decoder for every cell: making one per cell took a third of the time of deciding. */
const decoder = new TextDecoder();

/** The cell's text after its sign, as a string; a long one is no phone number (and never decoded). */
function rest(cell: string | Uint8Array, from: number, end: number): string {
  if (end - from > 64) return '\u0000';
  return typeof cell === 'string' ? cell.slice(from, end) : decoder.decode(cell.subarray(from, end));
}

/** The cell with an apostrophe in front when it is a formula: spreadsheets show such a cell as text. */
export function neutraliseFormula(cell: string): string {
  return isFormulaCell(cell) ? `'${cell}` : cell;
}

/** A value as one field of a CSV line the service writes: never a formula, quoted when it must be. */
export function safeCsvField(value: string): string {
  const text = neutraliseFormula(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
