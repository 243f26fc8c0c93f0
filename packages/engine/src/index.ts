export { areaCodeInfo, type ReferenceDataVersions, referenceDataVersions } from './area-codes.ts';
export { ImportError, type ImportProblem } from './import-error.ts';
export type { NanpCountry } from './nanpa/countries.ts';
export { type NpaReport, type NpaReportRow, readNpaReport } from './nanpa/npa-report.ts';
export type { AreaCodeInfo, AreaCodeStatus } from './nanpa/npa-table.ts';
