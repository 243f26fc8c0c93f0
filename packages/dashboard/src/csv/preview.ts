/**
 * The wizard's CSV head preview: reads only the first 64 KB of the file (File.slice), so a 1 GB
 * file previews as fast as a small one. To be replaced by `@scrub/engine/preview` (browser-safe
 * dialect sniffing, head preview, phone-column guess) once that entry lands.
 */

/** How much of the file the preview reads. */
export const HEAD_BYTES = 64 * 1024;
/** Seed 2: the preview shows the first 10 records. */
export const PREVIEW_ROWS = 10;

const SEPARATORS = [',', ';', '\t'] as const;
export type Separator = (typeof SEPARATORS)[number];

export interface CsvPreview {
  separator: Separator;
  /** The first row, or Column 1..n for a file without a header row; duplicates get a numeric suffix. */
  headers: string[];
  /** Up to PREVIEW_ROWS records after the header. */
  rows: string[][];
}

export class CsvPreviewError extends Error {}

/** The head of the file as text, cut at the last complete line when the file goes on. */
export async function readHead(file: Blob, bytes = HEAD_BYTES): Promise<string> {
  const text = await file.slice(0, bytes).text();
  if (file.size <= bytes) return text;
  const lastBreak = text.lastIndexOf('\n');
  return lastBreak > 0 ? text.slice(0, lastBreak + 1) : text;
}

/** The most frequent of comma, semicolon and tab outside quotes in the first lines; comma for one column. */
export function sniffSeparator(text: string): Separator {
  const sample = text.split(/\r?\n/).slice(0, 20).join('\n');
  let best: Separator = ',';
  let bestCount = 0;
  for (const separator of SEPARATORS) {
    let count = 0;
    let quoted = false;
    for (const char of sample) {
      if (char === '"') quoted = !quoted;
      else if (!quoted && char === separator) count++;
    }
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

/** RFC 4180 records (quoted fields, doubled quotes, line breaks in quotes); blank lines are skipped. */
export function parseRecords(text: string, separator: Separator, limit: number): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const endRecord = () => {
    record.push(field.trim());
    field = '';
    if (record.some((value) => value !== '')) records.push(record);
    record = [];
  };
  for (let i = 0; i < text.length && records.length < limit; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      record.push(field.trim());
      field = '';
    } else if (char === '\n') endRecord();
    else if (char !== '\r') field += char;
  }
  if (records.length < limit && (field !== '' || record.length > 0)) endRecord();
  return records;
}

/** Header texts made unique, as the seed's parser does: Phone, Phone_1, Phone_2. */
export function uniqueHeaders(raw: string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((header, index) => {
    const name = header || `Column ${index + 1}`;
    const times = seen.get(name) ?? 0;
    seen.set(name, times + 1);
    return times === 0 ? name : `${name}_${times}`;
  });
}

export async function previewCsv(file: Blob, headerRow: boolean): Promise<CsvPreview> {
  const text = (await readHead(file)).replace(/^\uFEFF/, '');
  if (!text.trim()) throw new CsvPreviewError('Empty CSV. Please provide something.');
  const separator = sniffSeparator(text);
  const records = parseRecords(text, separator, PREVIEW_ROWS + 1);
  const first = records[0];
  if (!first) throw new CsvPreviewError('Empty CSV. Please provide something.');
  const width = Math.max(...records.map((record) => record.length));
  if (headerRow) {
    if (first.every((value) => value === '')) {
      throw new CsvPreviewError('Could not detect header. Ensure first row contains your column headers.');
    }
    const padded = [...first, ...Array<string>(width - first.length).fill('')];
    return { separator, headers: uniqueHeaders(padded), rows: records.slice(1, PREVIEW_ROWS + 1) };
  }
  return {
    separator,
    headers: Array.from({ length: width }, (_, index) => `Column ${index + 1}`),
    rows: records.slice(0, PREVIEW_ROWS),
  };
}

/**
 * Counts the file's records by streaming it once (never held whole): record ends outside quotes,
 * blank lines left out. For the quote "Found N phone numbers" before anything is uploaded.
 */
export async function countRecords(file: Blob, signal?: AbortSignal): Promise<number> {
  const QUOTE = 0x22;
  const NEWLINE = 0x0a;
  const CR = 0x0d;
  let records = 0;
  let quoted = false;
  let lineHasContent = false;
  const reader = file.stream().getReader();
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel();
      throw new DOMException('Counting was cancelled', 'AbortError');
    }
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) {
      if (byte === QUOTE) {
        quoted = !quoted;
        lineHasContent = true;
      } else if (byte === NEWLINE && !quoted) {
        if (lineHasContent) records++;
        lineHasContent = false;
      } else if (byte !== CR && byte !== 0x20 && byte !== 0x09 && byte !== 0x2c && byte !== 0x3b) {
        lineHasContent = true;
      }
    }
  }
  if (lineHasContent) records++;
  return records;
}
