/**
 * `@scrub/engine/preview`: what a browser (the dashboard's upload wizard) and the CLI need before
 * a file is scrubbed, with no Node built-ins in its module graph: the CSV dialect as the scrubber
 * reads it, a preview of a file's first rows from its head, the phone column's guess, the one rule
 * for finding a column by its header name, and the one rule for cells a spreadsheet would run as
 * formulas, and the phone-number reader `/verify` uses (the API page's test box). `preview.test.ts`
 * keeps the graph clean.
 */
export { findColumnByName } from './csv/column-name.ts';
export { CSV_EMPTY_MESSAGE, CSV_ERROR_CODES, CsvError, type CsvErrorCode } from './csv/csv-error.ts';
export type { CsvDialect, CsvEncoding, CsvLineEnding, CsvSeparator } from './csv/dialect.ts';
export { isFormulaCell, neutraliseFormula } from './csv/formula.ts';
export {
  type CsvHeadPreviewOptions,
  type CsvPreview,
  type CsvPreviewOptions,
  type CsvSniff,
  guessPhoneColumn,
  PREVIEW_HEAD_BYTES,
  previewCsvFile,
  previewCsvHead,
  sniffCsv,
} from './csv/preview-head.ts';
export { type ParseResult, parsePhone } from './parse-phone.ts';
