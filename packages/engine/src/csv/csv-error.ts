/**
 * Why a CSV file cannot be scrubbed at all. Stable: the server answers them as 400s with the code,
 * and clients may branch on them. Rows that cannot be read are not errors: they are counted and
 * reported (`unreadable`), and the rest of the file is scrubbed.
 */
export const CSV_ERROR_CODES = [
  /** No rows at all (empty, only a byte-order mark, only blank lines). */
  'csv_empty',
  /** A header row and nothing after it. */
  'csv_header_only',
  /** No column of that name in the header, or a name given for a file without a header. */
  'csv_column_not_found',
  /** A column number past the first row's last column. */
  'csv_column_out_of_range',
  /** Not text: a workbook, a PDF, an image, or bytes no text file holds. */
  'csv_not_text',
  /** One row longer than the limit: almost always a quote that is never closed. */
  'csv_row_too_large',
  /** A quoted field still open at the end of the file. */
  'csv_unclosed_quote',
] as const;

export type CsvErrorCode = (typeof CSV_ERROR_CODES)[number];

/** The seed's message for an empty file, shown in the wizard's 'Attention' dialog. */
export const CSV_EMPTY_MESSAGE = 'Csv is empty';

export class CsvError extends Error {
  override readonly name = 'CsvError';
  readonly code: CsvErrorCode;
  /** The 1-based line of the file the problem is on, when it is on one. */
  readonly line: number | null;

  constructor(code: CsvErrorCode, message: string, line: number | null = null) {
    super(message);
    this.code = code;
    this.line = line;
  }
}
