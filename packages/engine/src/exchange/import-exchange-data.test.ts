import {
  CO_CODE_FILE,
  NUMBER_OVERRIDES_CSV,
  OCN_LINE_TYPES_CSV,
  streamOf,
  THOUSANDS_BLOCK_FILE,
} from '@scrub/test-fixtures/exchange';
import { describe, expect, it } from 'vitest';
import { ClassCode } from '../classify.ts';
import { ImportError } from '../import-error.ts';
import { importExchangeData } from './import-exchange-data.ts';

const C = ClassCode;

const files = () => ({
  ocnLineTypes: streamOf(OCN_LINE_TYPES_CSV),
  coCodes: streamOf(CO_CODE_FILE, 'latin1'),
  thousandsBlocks: streamOf(THOUSANDS_BLOCK_FILE, 'latin1'),
  numberOverrides: streamOf(NUMBER_OVERRIDES_CSV),
});

describe('importExchangeData', () => {
  it('imports all four files into one table: number over block over exchange', async () => {
    const { table, reports } = await importExchangeData(files());
    expect(table.source).toBe('imported');
    expect(table.version).toMatch(
      /^co:2025-11-26,blocks:[0-9a-f]{12},ocn:[0-9a-f]{12},numbers:[0-9a-f]{12}$/,
    );
    expect(reports.ocnLineTypes.rowsUsed).toBe(6);
    expect(reports.coCodes.rowsUsed).toBe(6);
    expect(reports.thousandsBlocks?.rowsUsed).toBe(3);
    expect(reports.numberOverrides?.rowsUsed).toBe(2);

    expect(table.lineTypeCode(2012361234)).toBe(C.VOIP); // exchange
    expect(table.lineTypeCode(2012365123)).toBe(C.MOBILE); // block over exchange
    expect(table.lineTypeCode(2012365000)).toBe(C.LANDLINE); // number over block
    expect(table.lineTypeCode(2012340001)).toBe(C.VOIP); // number over exchange
    expect(table.lineTypeCode(2012349000)).toBe(C.UNKNOWN_GEOGRAPHIC);
    expect(table.lineTypeCode(2017432345)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
  });

  it('needs only the OCN list and the CO code file', async () => {
    const { ocnLineTypes, coCodes } = files();
    const { table, reports } = await importExchangeData({ ocnLineTypes, coCodes });
    expect(table.version).toMatch(/^co:2025-11-26,ocn:[0-9a-f]{12}$/);
    expect(reports.thousandsBlocks).toBeUndefined();
    expect(table.memory().blocks).toBe(0);
    expect(table.lineTypeCode(2012365123)).toBe(C.VOIP);
  });

  it('builds no table when a file is refused', async () => {
    const bad = { ...files(), numberOverrides: streamOf('number,line_type\n201-236-5000,pager\n') };
    await expect(importExchangeData(bad)).rejects.toBeInstanceOf(ImportError);
    const { table, reports } = await importExchangeData(
      { ...files(), numberOverrides: streamOf('number,line_type\n201-236-5000,pager\n') },
      { mode: 'partial' },
    );
    expect(reports.numberOverrides?.problemCount).toBe(1);
    expect(table.lineTypeCode(2012365000)).toBe(C.MOBILE);
  });
});
