import {
  blockRow,
  streamOf,
  THOUSANDS_BLOCK_COLUMNS,
  THOUSANDS_BLOCK_FILE,
} from '@scrub/test-fixtures/exchange';
import { describe, expect, it } from 'vitest';
import { ClassCode } from '../classify.ts';
import { ImportError } from '../import-error.ts';
import { ExchangeTableBuilder } from './exchange-table.ts';
import type { ImportMode } from './import-session.ts';
import type { OcnLineTypes } from './ocn-line-types.ts';
import { importThousandsBlocks } from './thousands-blocks.ts';

const C = ClassCode;
const OCNS: OcnLineTypes = new Map([
  ['9001', C.MOBILE],
  ['9002', C.LANDLINE],
  ['9003', C.VOIP],
]);

async function importText(text: string, mode: ImportMode = 'strict') {
  const builder = new ExchangeTableBuilder();
  builder.setExchange(201236, C.VOIP);
  builder.setExchange(201234, C.MOBILE);
  const report = await importThousandsBlocks(streamOf(text, 'latin1'), builder, { ocnLineTypes: OCNS, mode });
  return { report, table: builder.build(report.version) };
}

describe('importThousandsBlocks', () => {
  it('reads the block report and lets each block override its exchange', async () => {
    const { report, table } = await importText(THOUSANDS_BLOCK_FILE);
    expect(report).toMatchObject({
      source: 'thousands-block report',
      rowsRead: 4,
      rowsUsed: 3,
      problems: [],
      withoutLineType: 1,
      notAssigned: 1,
    });
    expect(table.lineTypeCode(2012361234)).toBe(C.VOIP); // the exchange
    expect(table.lineTypeCode(2012365123)).toBe(C.MOBILE);
    expect(table.lineTypeCode(2012366123)).toBe(C.LANDLINE);
    expect(table.lineTypeCode(2012367123)).toBe(C.VOIP); // not assigned: the exchange answers
    // A block held by a carrier the OCN list does not know: unknown, not the exchange's type.
    expect(table.lineTypeCode(2012349123)).toBe(C.UNKNOWN_GEOGRAPHIC);
    expect(table.lineTypeCode(2012348123)).toBe(C.MOBILE);
  });

  it('reads the tab-delimited form, latin1, after a title line, without a Status column', async () => {
    const columns = THOUSANDS_BLOCK_COLUMNS.filter((column) => column !== 'Status');
    const text = [
      'Thousands Block Assignment Report',
      columns.join('\t'),
      ['Southeast', 'PR', '787', '234', '0', '01/01/2020', 'SAN JUAN', '9002', 'Teléfonos Sintéticos'].join(
        '\t',
      ),
    ].join('\n');
    const builder = new ExchangeTableBuilder();
    const report = await importThousandsBlocks(streamOf(text, 'latin1'), builder, { ocnLineTypes: OCNS });
    expect(report.rowsUsed).toBe(1);
    expect(builder.build('tabs').lineTypeCode(7872340555)).toBe(C.LANDLINE);
  });

  const BAD = [
    THOUSANDS_BLOCK_COLUMNS.join(','),
    blockRow('201', '236', '5', '9001'),
    blockRow('201', '236', '55', '9001'),
    blockRow('201', '136', '5', '9001'),
    blockRow('201', '236', '5', '9002'),
    blockRow('201', '236', '6', 'N/A'),
    'Northeast,NJ,201,236',
    blockRow('201', '236', '8', '9003'),
  ].join('\n');

  it('refuses a file with bad rows in strict mode, naming each line', async () => {
    const error = await importText(BAD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      {
        line: 3,
        message: 'block 201-236-55 is not an area code and exchange (200-999) and a block digit (0-9)',
      },
      {
        line: 4,
        message: 'block 201-136-5 is not an area code and exchange (200-999) and a block digit (0-9)',
      },
      { line: 5, message: 'block 201-236-5 appears again' },
      { line: 6, message: 'block 201-236-6: OCN "N/A" is not four letters or digits' },
      { line: 7, message: '4 fields where the header has 10 (a truncated row?)' },
    ]);
  });

  it('skips bad rows in partial mode and reports them', async () => {
    const { report, table } = await importText(BAD, 'partial');
    expect(report).toMatchObject({ rowsRead: 7, rowsUsed: 2, problemCount: 5 });
    expect(table.lineTypeCode(2012365000)).toBe(C.MOBILE); // the first row for the block
    expect(table.lineTypeCode(2012366000)).toBe(C.VOIP); // bad row: the exchange answers
    expect(table.lineTypeCode(2012368000)).toBe(C.VOIP);
  });

  it('skips a title line before the header and takes its date as the version', async () => {
    const { report } = await importText(
      `Thousands Block Assignment Report as of 11/30/2025\n${THOUSANDS_BLOCK_FILE}`,
    );
    expect(report).toMatchObject({ version: '2025-11-30', rowsUsed: 3 });
  });

  it('refuses a file without the block columns', async () => {
    await expect(importText('Region,State,NPA,NXX,OCN\n')).rejects.toThrow(
      /line 1: the header lacks X: expected the thousands-block report/,
    );
  });
});
