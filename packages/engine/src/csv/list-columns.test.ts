import { describe, expect, it } from 'vitest';
import { DncListBuilder } from '../dnc/builder.ts';
import { DncSet } from '../dnc/set.ts';
import { collector, testExchanges } from './csv-fixtures.ts';
import { scrubCsv } from './scrub-csv.ts';
import { scrubCsvInParallel } from './scrub-csv-parallel.ts';
import type { ScrubCsvOptions } from './scrub-options.ts';

// Operator lists (known litigators, a vendor's list) as result columns: flags beside DNC, never DNC.

function listOf(name: string, numbers: number[]) {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build('v1');
}

const federal = listOf('federal', [2013456789]);
const litigators = listOf('list:litigators', [2012345678, 2013456789]);
const vendor = listOf('list:vendor-x', [2014567891]);

const LEADS = [
  'Name,Phone',
  'Ann,(201) 234-5678',
  'Bob,201.345.6789',
  'Cy,201 456 7891',
  'Gus,n/a',
  'Hal,2014567892',
  '',
].join('\n');

const options: ScrubCsvOptions = {
  phoneColumn: 'Phone',
  exchange: testExchanges,
  dnc: new DncSet([federal]),
  lists: new DncSet([litigators, vendor]),
  columns: ['timezone'],
};

describe('operator list columns', () => {
  it('adds a List column per list, last: 1 on it, 0 a valid number not on it, empty an invalid one', async () => {
    const output = collector();
    const result = await scrubCsv(Buffer.from(LEADS), output, options);
    expect(output.text().trimEnd().split('\n')).toEqual([
      'Name,Phone,Line Type,DNC,Time Zone,List: litigators,List: vendor-x',
      'Ann,(201) 234-5678,mobile,0,America/New_York,1,0',
      'Bob,201.345.6789,landline,1,America/New_York,1,0',
      'Cy,201 456 7891,voip,0,America/New_York,0,1',
      'Gus,n/a,invalid,,,,',
      'Hal,2014567892,voip,0,America/New_York,0,0',
    ]);
    // A litigator hit is a flag of its own: DNC counts only the do-not-call lists.
    expect(result.dncStatus).toEqual({ clean: 3, dnc: 1, unchecked: 0 });
  });

  it('writes the same on several threads, and nothing more without lists', async () => {
    // Threads map shared tables only: no test exchange table here.
    const shared = { ...options, exchange: undefined };
    const one = collector();
    await scrubCsv(Buffer.from(LEADS), one, shared);
    expect(one.text()).toContain(',1,0\n');
    const many = collector();
    await scrubCsvInParallel([Buffer.from(LEADS)], many, {
      ...shared,
      threads: 2,
      partSizes: { first: 1, rest: 20 },
      inPlace: false,
    });
    expect(many.text()).toBe(one.text());

    const without = collector();
    await scrubCsv(Buffer.from(LEADS), without, { ...options, lists: new DncSet(), columns: [] });
    expect(without.text().split('\n')[0]).toBe('Name,Phone,Line Type,DNC');
  });
});
