import { ClassCode, classificationOf, classifyCode } from '../classify.ts';
import { parsePhone } from '../parse-phone.ts';
import type { ExchangeTableBuilder } from './exchange-table.ts';
import {
  type ImportInput,
  type ImportOptions,
  type ImportReport,
  ImportSession,
  readOptionalHeaderCsv,
} from './import-session.ts';
import { describeLineTypeWord, lineTypeFromWord } from './line-types.ts';

const COLUMNS = {
  number: { names: ['number', 'phone', 'phone_number', 'tn', 'e164'], required: true },
  lineType: { names: ['line_type', 'type', 'category'], required: true },
} as const;

/**
 * Reads the number-overrides CSV, `number,line_type` (header optional, other columns ignored): one
 * row per number whose line type differs from its block's and exchange's, mostly numbers ported
 * to another carrier. Numbers are read as `parsePhone` reads them (`(201) 555-0123`, `+1 201...`,
 * spreadsheet floats); line types as in the OCN list. A number must be a valid US geographic
 * number: nothing else is ever looked up. A number listed twice takes its last row.
 */
export async function importNumberOverrides(
  input: ImportInput,
  builder: ExchangeTableBuilder,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const session = new ImportSession(input, 'number overrides', options);
  const list = {
    columns: COLUMNS,
    expected: '"number,line_type"',
    looksLikeData: (fields: readonly string[]) => /\d/.test(fields[0]!),
  };

  const sha256 = await readOptionalHeaderCsv(input, session, list, (fields, line, columns) => {
    const numberText = fields[columns.number] ?? '';
    const parsed = parsePhone(numberText);
    if (!parsed.ok) return session.problem(line, parsed.message);
    const code = classifyCode(parsed.number);
    if (code !== ClassCode.UNKNOWN_GEOGRAPHIC) {
      const why =
        code === ClassCode.TOLL_FREE
          ? 'toll-free numbers have no exchange line type to override'
          : classificationOf(code, parsed.number).message;
      return session.problem(line, `${parsed.e164} is not a valid US geographic number: ${why}`);
    }
    const typeText = fields[columns.lineType] ?? '';
    const lineType = lineTypeFromWord(typeText);
    if (lineType === null) {
      return session.problem(line, `${parsed.e164}: ${describeLineTypeWord(typeText)}`);
    }
    builder.setNumber(parsed.number, lineType);
    session.rowsUsed++;
  });

  return session.finish(null, sha256);
}
