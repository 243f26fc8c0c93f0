import { ClassCode } from '../classify.ts';
import { BLOCK_SLOTS, type ExchangeTableBuilder } from './exchange-table.ts';
import {
  type Columns,
  columnKey,
  type ImportInput,
  type ImportOptions,
  type ImportReport,
  ImportSession,
  ReportHeader,
  readOcn,
  readReport,
} from './import-session.ts';
import type { OcnLineTypes } from './ocn-line-types.ts';

export interface ThousandsBlockImportOptions extends ImportOptions {
  /** Joins each block's OCN to a line type. */
  ocnLineTypes: OcnLineTypes;
}

export interface ThousandsBlockImportReport extends ImportReport {
  /** Blocks whose OCN the OCN list does not know: they answer unknown_geographic. */
  withoutLineType: number;
  /** Rows whose Status says the block is not assigned: read, not used, not a problem. */
  notAssigned: number;
}

const COLUMNS = {
  npa: { names: ['NPA'], required: true },
  nxx: { names: ['NXX'], required: true },
  x: { names: ['X', 'Block', 'Thousands Block', 'Block Number'], required: true },
  ocn: { names: ['OCN'], required: true },
  status: { names: ['Status', 'Block Status'], required: false },
} as const;

const ASSIGNED = new Set(['AS', 'ASSIGNED']);

/**
 * Reads the thousands-block report of the pooling administrator
 * (`ThousandsBlockAssignment_All_Augmented.txt`, once `AllBlocksAugmentedReport.txt`): one row
 * per thousands block assigned in a pooled exchange, with the columns Region, State, NPA, NXX, X
 * (the block digit), ..., OCN, .... Tab- or comma-delimited (told by the header line), latin1;
 * columns found by name. With a Status column only assigned blocks (`AS`) are used.
 *
 * A block takes the line type of the carrier holding it, which in a pooled exchange is often not
 * the carrier holding the exchange: blocks override their exchange. A block whose OCN the list
 * does not know answers unknown rather than inherit its exchange's carrier.
 */
export async function importThousandsBlocks(
  input: ImportInput,
  builder: ExchangeTableBuilder,
  options: ThousandsBlockImportOptions,
): Promise<ThousandsBlockImportReport> {
  const session = new ImportSession(input, 'thousands-block report', options);
  // One bit per block, to report a block listed twice.
  const seen = new Uint8Array(BLOCK_SLOTS / 8);
  const header = new ReportHeader(
    COLUMNS,
    'the thousands-block report (Region, State, NPA, NXX, X, ..., OCN, ...)',
  );
  let withoutLineType = 0;
  let notAssigned = 0;

  const readRow = (fields: string[], line: number, { npa, nxx, x, ocn, status }: Columns<typeof COLUMNS>) => {
    session.rowsRead++;
    if (fields.length < header.needed) {
      return session.problem(
        line,
        `${fields.length} fields where the header has ${header.width} (a truncated row?)`,
      );
    }
    const [npaText, nxxText, xText] = [fields[npa]!, fields[nxx]!, fields[x]!];
    const name = `${npaText}-${nxxText}-${xText}`;
    if (!/^[2-9]\d\d$/.test(npaText) || !/^[2-9]\d\d$/.test(nxxText) || !/^\d$/.test(xText)) {
      return session.problem(
        line,
        `block ${name} is not an area code and exchange (200-999) and a block digit (0-9)`,
      );
    }
    if (status !== undefined && !ASSIGNED.has(columnKey(fields[status]!))) {
      notAssigned++;
      return;
    }
    const block = (Number(npaText) * 1000 + Number(nxxText)) * 10 + Number(xText);
    const bit = 1 << (block & 7);
    if ((seen[block >>> 3]! & bit) !== 0) return session.problem(line, `block ${name} appears again`);
    seen[block >>> 3]! |= bit;

    const ocnText = fields[ocn]!;
    const carrier = readOcn(ocnText);
    if (carrier === null) {
      return session.problem(line, `block ${name}: OCN "${ocnText}" is not four letters or digits`);
    }
    const lineType = options.ocnLineTypes.get(carrier);
    if (lineType === undefined) withoutLineType++;
    builder.setBlock(block, lineType ?? ClassCode.UNKNOWN_GEOGRAPHIC);
    session.rowsUsed++;
  };

  const report = await readReport(input, session, header, { delimiter: 'auto', encoding: 'latin1' }, readRow);
  return { ...report, withoutLineType, notAssigned };
}
