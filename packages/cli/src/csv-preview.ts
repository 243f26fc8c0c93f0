import { open } from 'node:fs/promises';

/** As much as the dashboard's preview needs, and no more: the first rows of a file of any size. */
const HEAD_BYTES = 64 * 1024;
/** The service decides the separator from this many lines; so does the preview, to agree with it. */
const DIALECT_LINES = 20;
const SEPARATORS = [',', ';', '\t'] as const;

export interface CsvPreview {
  /** The first rows, the header included when there is one, as the service will read them. */
  rows: string[][];
}

/** UTF-16 with a byte-order mark, else UTF-8 (a byte-order mark dropped), as the service reads files. */
function decode(head: Buffer): string {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le').decode(head.subarray(2));
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be').decode(head.subarray(2));
  return new TextDecoder().decode(head);
}

/** The most frequent of comma, semicolon and tab outside quotes in the first lines; ties go to comma. */
function detectSeparator(text: string): string {
  const counts = [0, 0, 0];
  let quoted = false;
  let fieldStart = true;
  let lines = 0;
  for (let i = 0; i < text.length && lines < DIALECT_LINES; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') i++;
      else if (char === '"') quoted = false;
      continue;
    }
    const separator = SEPARATORS.indexOf(char as (typeof SEPARATORS)[number]);
    if (char === '"' && fieldStart) quoted = true;
    else if (separator !== -1) counts[separator]!++;
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      lines++;
    }
    fieldStart = separator !== -1 || char === '\n' || char === '\r';
  }
  let best = 0;
  for (let i = 1; i < counts.length; i++) if (counts[i]! > counts[best]!) best = i;
  return SEPARATORS[best]!;
}

/** RFC 4180 rows (quoted fields hold separators, line breaks and doubled quotes); blank lines skipped. */
function parseRows(text: string, separator: string, complete: boolean, maxRows: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStart = true;
  const endRow = () => {
    row.push(field);
    if (row.some((cell) => cell.trim() !== '')) rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
      continue;
    }
    if (char === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (char === separator) {
      row.push(field);
      field = '';
      fieldStart = true;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRow();
      fieldStart = true;
    } else {
      field += char;
      fieldStart = false;
    }
  }
  // The last line counts only when the file ended there; otherwise it may be cut short.
  if (complete && rows.length < maxRows && (row.length > 0 || field !== '')) endRow();
  return rows;
}

/** The first `maxRows` rows of a CSV file, reading only its first 64 kB. */
export async function previewCsv(path: string, maxRows: number): Promise<CsvPreview> {
  const file = await open(path);
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    const complete = bytesRead < HEAD_BYTES;
    const text = decode(buffer.subarray(0, bytesRead));
    return { rows: parseRows(text, detectSeparator(text), complete, maxRows) };
  } finally {
    await file.close();
  }
}
