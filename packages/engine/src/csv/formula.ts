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

// What may follow a leading + or - in a number as people write one: `+1 (201) 555-0123`, `-42.50`.
// Without letters or other symbols such a cell can compute arithmetic at most: it calls nothing.
const NUMBER_CHAR = new Uint8Array(128);
for (const char of '0123456789 ()+-.') NUMBER_CHAR[char.charCodeAt(0)] = 1;

/**
 * Whether a spreadsheet would run the cell as a formula: it starts with `=`, `@`, a tab or a line
 * break (OWASP's CSV injection list), or with `+` or `-` followed by more than a number's characters.
 * `+1 201 555 0123` and `-42.50` are data; `+cmd|calc`, `-2+A1` and `=1+2` are formulas. Reads a
 * string, or the UTF-8 bytes `cell[start..end)` (a byte of a non-ASCII character is never a
 * number's, as its character is not: both forms give the same answer).
 */
export function isFormulaCell(cell: string | Uint8Array, start = 0, end = cell.length): boolean {
  if (start >= end) return false;
  const text = typeof cell === 'string';
  const first = text ? cell.charCodeAt(start) : cell[start]!;
  if (first === EQUALS || first === AT || first === TAB || first === CR || first === LF) return true;
  if (first !== PLUS && first !== MINUS) return false;
  for (let i = start + 1; i < end; i++) {
    const next = text ? cell.charCodeAt(i) : cell[i]!;
    if (next >= 128 || NUMBER_CHAR[next] !== 1) return true;
  }
  return false;
}

/** The cell with an apostrophe in front when it is a formula: spreadsheets show such a cell as text. */
export function neutraliseFormula(cell: string): string {
  return isFormulaCell(cell) ? `'${cell}` : cell;
}
