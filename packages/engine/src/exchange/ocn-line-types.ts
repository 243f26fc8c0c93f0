import {
  type ImportInput,
  type ImportOptions,
  type ImportReport,
  ImportSession,
  readOcn,
  readOptionalHeaderCsv,
} from './import-session.ts';
import { describeLineTypeWord, type LineTypeCode, lineTypeFromWord } from './line-types.ts';

/** Line type by Operating Company Number (a few tens of thousands of carriers: a Map is fine). */
export type OcnLineTypes = ReadonlyMap<string, LineTypeCode>;

export interface OcnLineTypesImport {
  lineTypes: OcnLineTypes;
  report: ImportReport;
}

const COLUMNS = {
  ocn: { names: ['ocn', 'operating company number'], required: true },
  lineType: {
    names: ['line_type', 'type', 'category', 'ocn_type', 'ocn_category', 'carrier_type'],
    required: true,
  },
} as const;

/**
 * Reads the OCN-to-line-type CSV, `ocn,line_type` (header optional, other columns ignored), where a
 * line type is mobile, landline or voip, or a carrier category (`LINE_TYPE_WORDS`). NANPA's files
 * name each exchange's carrier by OCN but never its line type; this list, licensed from a
 * commercial source or kept by the operator, supplies it.
 */
export async function readOcnLineTypes(
  input: ImportInput,
  options: ImportOptions = {},
): Promise<OcnLineTypesImport> {
  const session = new ImportSession(input, 'OCN line types', options);
  const lineTypes = new Map<string, LineTypeCode>();
  const firstLines = new Map<string, number>();
  const list = {
    columns: COLUMNS,
    expected: '"ocn,line_type"',
    looksLikeData: (fields: readonly string[]) =>
      readOcn(fields[0]!) !== null && lineTypeFromWord(fields[1] ?? '') !== null,
  };

  const sha256 = await readOptionalHeaderCsv(input, session, list, (fields, line, columns) => {
    const ocnText = fields[columns.ocn] ?? '';
    const ocn = readOcn(ocnText);
    if (ocn === null) return session.problem(line, `OCN "${ocnText}" is not four letters or digits`);
    const typeText = fields[columns.lineType] ?? '';
    const lineType = lineTypeFromWord(typeText);
    if (lineType === null) return session.problem(line, `OCN ${ocn}: ${describeLineTypeWord(typeText)}`);
    const earlier = lineTypes.get(ocn);
    if (earlier !== undefined && earlier !== lineType) {
      return session.problem(
        line,
        `OCN ${ocn} appears again with another line type (first on line ${firstLines.get(ocn)})`,
      );
    }
    if (earlier === undefined) {
      lineTypes.set(ocn, lineType);
      firstLines.set(ocn, line);
    }
    session.rowsUsed++;
  });

  return { lineTypes, report: session.finish(null, sha256) };
}
