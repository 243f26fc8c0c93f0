import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { sampleExchangeTable } from '../exchange/sample.ts';
import { carrierOptionOf } from './carrier-cells.ts';
import { collector, testExchanges } from './csv-fixtures.ts';
import { distinctValidNumbers, scrubCsv } from './scrub-csv.ts';
import { scrubCsvInParallel } from './scrub-csv-parallel.ts';
import type { ScrubCsvOptions } from './scrub-options.ts';

// 201-234: mobile by its exchange; 201-345: landline; 201-999: an exchange with no line type.
const FILE = [
  'Name,Phone',
  'Ann,(201) 234-5678',
  'Bob,201-345-0001',
  'Cy,2013450001',
  'Di,201-999-0002',
  'Ed,12',
  'Flo,201-234-0009',
].join('\n');

async function scrub(options: Partial<ScrubCsvOptions>) {
  const output = collector();
  const result = await scrubCsv(Buffer.from(FILE), output, {
    phoneColumn: 'Phone',
    exchange: testExchanges,
    ...options,
  });
  return { rows: parse(output.text(), { columns: true }) as Record<string, string>[], result };
}

describe('carrier lookups in a scrub', () => {
  it('lists the distinct valid numbers, ascending, for the service to look up', async () => {
    const numbers = await distinctValidNumbers(Buffer.from(FILE), {
      phoneColumn: 'Phone',
      exchange: testExchanges,
    });
    expect([...numbers]).toEqual([2012340009, 2012345678, 2013450001, 2019990002]);
  });

  it("gives a looked-up number its lookup's line type, says so, and marks a contradicted table's answer ported", async () => {
    const carrier = carrierOptionOf([
      { number: 2013450001, lineType: 'mobile' },
      { number: 2012345678, lineType: 'mobile' },
      { number: 2019990002, lineType: 'voip' },
    ]);
    const { rows, result } = await scrub({ carrier, columns: ['line_type_source'] });
    expect(Object.keys(rows[0]!)).toEqual([
      'Name',
      'Phone',
      'Line Type',
      'DNC',
      'Line Type Source',
      'Ported',
    ]);
    expect(rows.map((row) => [row['Line Type'], row['Line Type Source'], row.Ported])).toEqual([
      ['mobile', 'carrier_lookup', ''],
      ['mobile', 'carrier_lookup', '1'],
      ['mobile', 'carrier_lookup', '1'],
      // The exchange had no line type to contradict: not a port.
      ['voip', 'carrier_lookup', ''],
      ['invalid', '', ''],
      // Not looked up (the provider failed): the exchange's answer, and it says so.
      ['mobile', 'exchange', ''],
    ]);
    expect(result.lineTypeSources).toEqual({ carrier_lookup: 4, exchange: 1 });
    expect(result.lineTypes.mobile).toBe(4);
  });

  it('counts what every line type rests on, without lookups or the column', async () => {
    const { rows, result } = await scrub({});
    expect(Object.keys(rows[0]!)).toEqual(['Name', 'Phone', 'Line Type', 'DNC']);
    expect(result.lineTypeSources).toEqual({ exchange: 5 });
  });

  it('answers the same on several threads', async () => {
    const exchange = sampleExchangeTable();
    const carrier = carrierOptionOf(
      Array.from({ length: 500 }, (_, i) => ({ number: 2012340000 + i * 3, lineType: 'voip' as const })),
    );
    const big = Buffer.from(
      [
        'Name,Phone',
        ...Array.from({ length: 30_000 }, (_, i) => `R${i},201234${String(i % 5000).padStart(4, '0')}`),
      ].join('\n'),
    );
    const options = { phoneColumn: 'Phone', exchange, carrier, columns: ['line_type_source' as const] };
    const one = collector();
    const alone = await scrubCsv(big, one, options);
    const several = collector();
    const parallel = await scrubCsvInParallel(big, several, {
      ...options,
      threads: 2,
      partSizes: { first: 4096, rest: 65_536 },
    });
    expect(several.text()).toBe(one.text());
    expect(parallel.lineTypeSources).toEqual(alone.lineTypeSources);
    expect(alone.lineTypeSources.carrier_lookup).toBe(3000);
  });
});
