import { CsvError, guessPhoneColumn, previewCsvFile } from '@scrub/engine/preview';

export { CsvError };

/** Seed 2: the preview shows the first 10 records. */
export const PREVIEW_ROWS = 10;

/** The wizard's view of the engine's preview: a name for every column, whether or not the file has a header row. */
export interface CsvPreview {
  /** The header row's names, or Column 1..n without one; duplicates get a numeric suffix. */
  headers: string[];
  /** Up to PREVIEW_ROWS records after the header. */
  rows: string[][];
  /** The column the engine guesses holds the phone numbers, offered first; null when none looks like one. */
  phoneColumn: number | null;
}

/** Header texts made unique, as the seed's parser does (Phone, Phone_1, Phone_2): they key the selects. */
function uniqueHeaders(raw: string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((header, index) => {
    const name = header || `Column ${index + 1}`;
    const times = seen.get(name) ?? 0;
    seen.set(name, times + 1);
    return times === 0 ? name : `${name}_${times}`;
  });
}

/**
 * The engine reads only the head of the file (File.slice), with the scrubber's own dialect rules,
 * so a 1 GB file previews as fast as a small one. Throws the engine's CsvError for what scrubbing
 * would refuse (empty, a header and no rows, not text).
 */
export async function previewCsv(file: Blob, headerRow: boolean): Promise<CsvPreview> {
  const preview = await previewCsvFile(file, { header: headerRow, rows: PREVIEW_ROWS });
  const names = preview.header ?? Array.from({ length: preview.columns }, () => '');
  return { headers: uniqueHeaders(names), rows: preview.rows, phoneColumn: preview.phoneColumn };
}

/** Whether a header row holds a phone number the scrubber reads: then it is a record, not a header. */
export const headerLooksLikeData = (headers: string[]) => guessPhoneColumn(null, [headers]) !== null;
