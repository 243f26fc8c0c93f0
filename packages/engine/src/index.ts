export { areaCodeInfo, type ReferenceDataVersions, referenceDataVersions } from './area-codes.ts';
export { type CallingCode, callingCodeOf } from './calling-codes.ts';
export {
  CALLING_WINDOW,
  CallingClock,
  type CallingWindowAnswer,
  callingWindowOf,
  localMinuteOf,
} from './calling-window.ts';
export { checkPhone, type DncLookup, type InvalidReason, type PhoneCheck } from './check-phone.ts';
export {
  ClassCode,
  type Classification,
  classificationOf,
  classifyCode,
  classifyNumber,
  type ExchangeAnswer,
  type ExchangeData,
  FIRST_INVALID_CODE,
  invalidReasonOf,
  isInvalidCode,
  type LineType,
  lineTypeOf,
  NUMBER_INVALID_REASONS,
  type NumberInvalidReason,
  numberInvalidMessage,
} from './classify.ts';
export { type CarrierOption, carrierOptionOf, PORTED_COLUMN } from './csv/carrier-cells.ts';
export { findColumnByName } from './csv/column-name.ts';
export type { CsvCounts, CsvRowCount, ScrubCsvResult } from './csv/csv-counts.ts';
export type { CsvInput } from './csv/csv-input.ts';
export { type OpenedCsv, openCsv } from './csv/csv-input.ts';
export {
  countCsvInThread,
  countCsvRowsInThread,
  scrubCsvInThread,
  type ThreadCountOptions,
  type ThreadScrubOptions,
} from './csv/csv-thread.ts';
export {
  type FilterResultCsvOptions,
  type FilterResultCsvResult,
  filterResultCsv,
  type ResultFilter,
} from './csv/filter-result-csv.ts';
export { neutraliseFormula, safeCsvField } from './csv/formula.ts';
export {
  IMPORTED_LINE_TYPES,
  type ImportedLineType,
  type ImportScrubbedCsvOptions,
  type ImportScrubbedCsvResult,
  importedDncOf,
  importedLineTypeOf,
  importScrubbedCsv,
  type ScrubbedCsvProblem,
} from './csv/import-scrubbed-csv.ts';
export { previewCsv } from './csv/preview-csv.ts';
export { REASSIGNED_COLUMN, type ReassignedOption } from './csv/reassigned-cells.ts';
export {
  indexResultCsv,
  RESULT_LINE_TYPE_CODES,
  type ResultIndex,
  readResultRows,
} from './csv/result-rows.ts';
export { countCsv, countCsvRows, distinctValidNumbers, scrubCsv } from './csv/scrub-csv.ts';
export {
  PART_SIZES,
  type ParallelScrubOptions,
  scrubCsvInParallel,
} from './csv/scrub-csv-parallel.ts';
export {
  type CountCsvOptions,
  type CsvProgress,
  DNC_COLUMN,
  LINE_TYPE_COLUMN,
  listColumnName,
  OPTIONAL_COLUMNS,
  type OptionalColumn,
  type ScrubCsvOptions,
} from './csv/scrub-options.ts';
export {
  type DataSource,
  type Datasets,
  dataSourceOf,
  datasetVersions,
  type Versioned,
  VersionedRef,
} from './datasets.ts';
export { DncListBuilder, type DncListBuilderOptions } from './dnc/builder.ts';
export {
  type DncCsvListOptions,
  type DncCsvOptions,
  type GuessedColumn,
  importDncCsv,
  importInternalDncList,
  importStateDncList,
} from './dnc/csv-list.ts';
export {
  applyFtcChangeList,
  DEFAULT_CHANGE_LIST_LAYOUT,
  type DncChangeReport,
  type FtcChangeListLayout,
  type FtcChangeListOptions,
} from './dnc/ftc-change-list.ts';
export { type FtcFullListOptions, importFtcFullList } from './dnc/ftc-full-list.ts';
export type {
  DncImport,
  DncImportMode,
  DncImportOptions,
  DncImportProblem,
  DncImportReport,
} from './dnc/import-report.ts';
export type { DncInput } from './dnc/input.ts';
export { type DncEncoding, DncList, type DncListStats, type SharedDncList } from './dnc/list.ts';
export {
  importOperatorList,
  isOperatorList,
  OPERATOR_LIST_PREFIX,
  type OperatorListOptions,
  operatorListNameProblem,
  PHONE_HEADER_NAMES,
} from './dnc/operator-list.ts';
export { DncSet, MAX_DNC_LISTS, type SharedDncSet } from './dnc/set.ts';
export { codeGivenListing, DncState, dncStateOf, dncValueOf } from './dnc/verdict.ts';
export {
  type CoCodeImportOptions,
  type CoCodeImportReport,
  importCoCodeFile,
} from './exchange/co-code-file.ts';
export {
  BLOCK_SLOTS,
  EXCHANGE_SLOTS,
  ExchangeTable,
  ExchangeTableBuilder,
  type ExchangeTableBuilderOptions,
  type ExchangeTableMemory,
  type ExchangeTableStats,
  type SharedExchangeTable,
} from './exchange/exchange-table.ts';
export {
  type ExchangeDataFiles,
  type ExchangeDataImport,
  importExchangeData,
} from './exchange/import-exchange-data.ts';
export type { ImportInput, ImportMode, ImportOptions, ImportReport } from './exchange/import-session.ts';
export { LINE_TYPE_WORDS, type LineTypeCode, lineTypeFromWord } from './exchange/line-types.ts';
export { importNumberOverrides } from './exchange/number-overrides.ts';
export { type OcnLineTypes, type OcnLineTypesImport, readOcnLineTypes } from './exchange/ocn-line-types.ts';
export {
  DEFAULT_SAMPLE_SEED,
  SAMPLE_NOT_IN_SERVICE_EXCHANGES,
  SAMPLE_VERSION,
  sampleExchangeTable,
} from './exchange/sample.ts';
export {
  importThousandsBlocks,
  type ThousandsBlockImportOptions,
  type ThousandsBlockImportReport,
} from './exchange/thousands-blocks.ts';
export { ImportError, type ImportProblem } from './import-error.ts';
export {
  LINE_TYPE_SOURCES,
  type LineTypeSource,
  lineTypeSourceCode,
  lineTypeSourceOf,
  SOURCE_NAMES,
  SourceCode,
  TableLevel,
} from './line-type-source.ts';
export type { NanpCountry } from './nanpa/countries.ts';
export { type NpaReport, type NpaReportRow, readNpaReport } from './nanpa/npa-report.ts';
export type { AreaCodeInfo, AreaCodeStatus } from './nanpa/npa-table.ts';
export {
  PARSE_FAILURE_REASONS,
  PARSE_NOTES,
  type ParsedPhone,
  type ParseFailure,
  type ParseFailureReason,
  type ParseNote,
  type ParseResult,
  parsePhone,
} from './parse-phone.ts';
// Everything a browser may use, also here for Node callers.
export * from './preview.ts';
export {
  DisconnectList,
  dateOfDay,
  dayOf,
  type SharedDisconnectList,
} from './reassigned/disconnect-list.ts';
export {
  type DisconnectImport,
  type DisconnectImportOptions,
  importDisconnects,
} from './reassigned/import-disconnects.ts';
