import { type CsvInput, openCsv } from './csv-input.ts';
import { type CsvPreview, type CsvPreviewOptions, PreviewRows } from './preview-head.ts';
import { RowBuffer } from './row-buffer.ts';

/**
 * Reads the start of a file (only as much as the rows shown take, then closes the input): its
 * encoding, separator, line break, header and first rows. Refuses what `scrubCsv` would refuse
 * from the same rows: not text, empty, a header with no rows. The rows are collected as
 * `previewCsvHead` (the browser-safe entry's) collects them.
 */
export async function previewCsv(input: CsvInput, options: CsvPreviewOptions = {}): Promise<CsvPreview> {
  const opened = await openCsv(input, options.separator);
  const rows = new PreviewRows(opened, options);
  const buffer = new RowBuffer();
  for await (const chunk of opened.chunks) {
    const buf = buffer.add(chunk);
    if (buf !== null) buffer.carry(buf, rows.step(buf, false));
    // Leaving the loop closes the input: a preview never reads the rest of a large file.
    if (rows.full) break;
  }
  if (!rows.full) rows.step(buffer.finish(), true);
  return rows.result(opened);
}
