import { isFormulaCell } from '@scrub/engine';
import { EXCHANGES, leadHeader, leadLines, mulberry32, TOLL_FREE, writeLines } from '@scrub/test-fixtures';

/** What a generated file holds, known from generating it: what its job must count. */
export interface LeadFile {
  rows: number;
  bytes: number;
  /** Rows whose phone is no valid US number (the junk). */
  invalid: number;
  tollFree: number;
  /** Distinct valid numbers: the credits the job keeps. */
  unique: number;
  /** Rows with a valid number an earlier row has. */
  duplicates: number;
}

export const LEAD_HEADER = leadHeader({ notes: true });

// What the counts rest on: area codes and exchanges valid in any reference data (geographic, in
// service; no N11, 555, 950 or the exchanges sample data calls not in service), and junk that no
// reference data reads as a valid ten-digit number.
const AREA_CODES = [201, 212, 213, 305, 312, 404, 415, 503, 512, 602, 617, 702, 713, 720, 808, 917];
const VALID_EXCHANGES = EXCHANGES.filter((nxx) => ![958, 959, 976].includes(nxx));
const JUNK = ['', 'n/a', '555-1234', 'call office', '000-000-0000', '12345', '(111) 222-3333'];

/**
 * Writes the fixtures' lead list of `rows` rows (and a header) to `path`, with `\n` line ends and
 * a notes column of cells a spreadsheet would run as formulas, and counts what it holds.
 */
export async function writeLeadCsv(path: string, rows: number, seed = 0x5c7b): Promise<LeadFile> {
  // Which numbers the file has so far: one bit per number the list can hold (23 area codes, 230 M
  // numbers, 29 MB), far quicker than a Set of millions.
  const codes = [...AREA_CODES, ...TOLL_FREE];
  const seen = new Uint8Array((codes.length * 10_000_000) / 8);
  const counts = { invalid: 0, tollFree: 0, duplicates: 0, unique: 0 };
  const onNumber = (number: number | null) => {
    if (number === null) {
      counts.invalid++;
      return;
    }
    const code = codes.indexOf(Math.floor(number / 10_000_000));
    if (code >= AREA_CODES.length) counts.tollFree++;
    const index = code * 10_000_000 + (number % 10_000_000);
    const bit = 1 << (index & 7);
    if ((seen[index >>> 3]! & bit) !== 0) counts.duplicates++;
    else {
      seen[index >>> 3]! |= bit;
      counts.unique++;
    }
  };
  const lines = leadLines(rows, {
    random: mulberry32(seed),
    areaCodes: AREA_CODES,
    exchanges: VALID_EXCHANGES,
    junk: JUNK,
    notes: true,
    onNumber,
  });
  const bytes = await writeLines(path, lines, '\n');
  return { rows, bytes, ...counts };
}

/**
 * A row of `writeLeadCsv` as the result writes it: cells a spreadsheet would run as formulas (the
 * engine's one rule) start with an apostrophe, inside the quotes of a quoted cell; numbers and
 * phone spellings stay as sent. (A cell starts after a comma: none of the quoted cells written
 * holds a comma followed by a formula.)
 */
export function neutralised(line: string): string {
  return line.replace(/(^|,)("?)([^,]*)/g, (cell, comma: string, quote: string, text: string) =>
    isFormulaCell(quote ? text.replace(/"$/, '') : text) ? `${comma}${quote}'${text}` : cell,
  );
}
