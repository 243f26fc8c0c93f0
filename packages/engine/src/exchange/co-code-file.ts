import { ClassCode, type ExchangeAnswer } from '../classify.ts';
import { EXCHANGE_SLOTS, type ExchangeTableBuilder } from './exchange-table.ts';
import {
  type Columns,
  type ImportInput,
  type ImportOptions,
  type ImportReport,
  ImportSession,
  ReportHeader,
  readOcn,
  readReport,
} from './import-session.ts';
import type { OcnLineTypes } from './ocn-line-types.ts';

export interface CoCodeImportOptions extends ImportOptions {
  /** Joins each exchange's OCN to a line type. */
  ocnLineTypes: OcnLineTypes;
}

export interface CoCodeImportReport extends ImportReport {
  /** Exchanges in service whose OCN the OCN list does not know: they answer unknown_geographic. */
  withoutLineType: number;
  /** Exchanges the file lists as assigned but not in service yet. */
  notInService: number;
}

const COLUMNS = {
  npaNxx: { names: ['NPA-NXX'], required: true },
  ocn: { names: ['OCN'], required: true },
  inService: { names: ['In Service'], required: false },
} as const;

const YES = new Set(['Y', 'YES']);
const NO = new Set(['N', 'NO']);

/**
 * Reads NANPA's "CO Code Utilized" file (`CoCodeAssignment_Utilized_AllStates_Public.txt`, once
 * `allutlzd.txt`): tab-delimited, latin1, one row per assigned exchange, with the columns State,
 * NPA-NXX, OCN, Company, RateCenter, EffectiveDate, Use, AssignDate, Initial/Growth, Pooled Code,
 * In Service. Columns are found by name; the engine uses NPA-NXX, OCN and In Service (a file
 * without In Service counts every row in service).
 *
 * Every area code the file has a row for is covered: its exchanges the file does not list are not
 * assigned, and answer EXCHANGE_NOT_IN_SERVICE. An exchange in service takes the line type of its
 * OCN, or answers unknown when the OCN list does not know it. The file date, when the header
 * carries one, is the version.
 */
export async function importCoCodeFile(
  input: ImportInput,
  builder: ExchangeTableBuilder,
  options: CoCodeImportOptions,
): Promise<CoCodeImportReport> {
  const session = new ImportSession(input, 'CO code file', options);
  // The line each exchange was first seen on, to name it when the exchange appears again.
  const firstLines = new Uint32Array(EXCHANGE_SLOTS);
  const header = new ReportHeader(
    COLUMNS,
    "NANPA's tab-delimited CO code file (State, NPA-NXX, OCN, Company, ...)",
  );
  let withoutLineType = 0;
  let notInService = 0;

  const readRow = (fields: string[], line: number, { npaNxx, ocn, inService }: Columns<typeof COLUMNS>) => {
    session.rowsRead++;
    const npaNxxText = fields[npaNxx] ?? '';
    const match = /^(\d{3})-?(\d{3})$/.exec(npaNxxText);
    if (!match) return session.problem(line, `NPA-NXX "${npaNxxText}" is not an area code and exchange`);
    const [npa, nxx] = [Number(match[1]), Number(match[2])];
    if (npa < 200 || nxx < 200) {
      const part = npa < 200 ? 'area code' : 'exchange';
      return session.problem(line, `NPA-NXX ${npaNxxText}: the ${part} starts with 0 or 1`);
    }
    const exchange = npa * 1000 + nxx;
    const earlier = firstLines[exchange]!;
    if (earlier !== 0) {
      return session.problem(line, `NPA-NXX ${npaNxxText} appears again (first on line ${earlier})`);
    }
    firstLines[exchange] = line;

    const rowProblem = (message: string) => {
      session.problem(line, `NPA-NXX ${npaNxxText}: ${message}`);
      // Listed, so assigned: a bad row leaves its exchange unknown, never not in service.
      builder.setExchange(exchange, ClassCode.UNKNOWN_GEOGRAPHIC);
    };
    if (fields.length < header.needed) {
      return rowProblem(`${fields.length} fields where the header has ${header.width} (a truncated row?)`);
    }
    const ocnText = fields[ocn]!;
    const carrier = ocnText === '' ? null : readOcn(ocnText);
    if (ocnText !== '' && carrier === null) {
      return rowProblem(`OCN "${ocnText}" is not four letters or digits`);
    }
    let live = true;
    if (inService !== undefined) {
      const flag = fields[inService]!.toUpperCase();
      if (!YES.has(flag) && !NO.has(flag)) {
        return rowProblem(`In Service "${fields[inService]}" is not Y or N`);
      }
      live = YES.has(flag);
    }

    const lineType = carrier === null ? undefined : options.ocnLineTypes.get(carrier);
    const answer: ExchangeAnswer = live
      ? (lineType ?? ClassCode.UNKNOWN_GEOGRAPHIC)
      : ClassCode.EXCHANGE_NOT_IN_SERVICE;
    if (!live) notInService++;
    else if (lineType === undefined) withoutLineType++;
    builder.coverArea(npa);
    builder.setExchange(exchange, answer);
    session.rowsUsed++;
  };

  const report = await readReport(input, session, header, { delimiter: '\t', encoding: 'latin1' }, readRow);
  return { ...report, withoutLineType, notInService };
}
