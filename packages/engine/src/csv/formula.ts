/**
 * The one rule for cells a spreadsheet would run as a formula: result files (`scrubCsv`), the
 * CLI's CSV output and the dashboard's previews all use it, so that a cell is treated alike
 * everywhere. Plain code, no Node built-ins: part of the browser-safe `@scrub/engine/preview`.
 */

const EQUALS = 0x3d;
const AT = 0x40;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const PLUS = 0x2b;
const MINUS = 0x2d;

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
 * Whether a spreadsheet would run the cell as a formula: it starts with `=` or `@`, or with `+` or
 * `-` followed by more than a number's or a phone number's characters, or with tabs or line breaks
 * before any of these (OWASP's CSV injection list: spreadsheets skip them). `+1 201 555 0123`,
 * `+1 (201) 555-0123 ext. 12`, `-42.50` and `\tnote` are data; `+cmd|calc`, `-2+A1`, `=1+2` and
 * `\t=1+2` are formulas. Reads a string, or the UTF-8 bytes `cell[start..end)` (a byte of a
 * non-ASCII character is never a number's, as its character is not: both forms give the same answer).
 */
export function isFormulaCell(cell: string | Uint8Array, start = 0, end = cell.length): boolean {
  const text = typeof cell === 'string';
  const at = (i: number) => (text ? cell.charCodeAt(i) : cell[i]!);
  let first = start;
  while (first < end && (at(first) === TAB || at(first) === CR || at(first) === LF)) first++;
  if (first >= end) return false;
  const lead = at(first);
  if (lead === EQUALS || lead === AT) return true;
  if (lead !== PLUS && lead !== MINUS) return false;
  for (let i = first + 1; i < end; i++) {
    const next = at(i);
    if (next < 128 && NUMBER_CHAR[next] === 1) continue;
    // Anything else: data only as a phone number's spaces and extension.
    return !PHONE_REST.test(rest(cell, first + 1, end));
  }
  return false;
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
