export { areaCodeInfo, type ReferenceDataVersions, referenceDataVersions } from './area-codes.ts';
export { type CallingCode, callingCodeOf } from './calling-codes.ts';
export { checkPhone, type InvalidReason, type PhoneCheck } from './check-phone.ts';
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
export { ImportError, type ImportProblem } from './import-error.ts';
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
