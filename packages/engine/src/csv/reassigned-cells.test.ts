import { describe, expect, it } from 'vitest';
import { DncListBuilder } from '../dnc/builder.ts';
import { DncSet } from '../dnc/set.ts';
import { sampleExchangeTable } from '../exchange/sample.ts';
import { DisconnectList, dayOf } from '../reassigned/disconnect-list.ts';
import { collector, testExchanges } from './csv-fixtures.ts';
import { scrubCsv } from './scrub-csv.ts';
import { scrubCsvInParallel } from './scrub-csv-parallel.ts';

const disconnects = DisconnectList.build([[2012340100, dayOf('2024-03-01')]], {
  version: 'v1',
  asOf: '2024-06-30',
  from: '2024-01-01',
});

const input = [
  'Name,Phone,Consent',
  'Ann,201-234-0100,2024-02-01',
  'Bob,201-234-0100,2024-04-01',
  'Cy,201-234-0199,2024-02-01',
  'Di,201-234-0199,2024-08-01',
  'Ed,201-234-0199,',
  'Flo,12,2024-02-01',
  '',
].join('\n');

describe('the Reassigned column', () => {
  it('answers 1, 0, or empty (no data) from each row consent date', async () => {
    const output = collector();
    await scrubCsv(Buffer.from(input), output, {
      phoneColumn: 'Phone',
      exchange: testExchanges,
      reassigned: { consentColumn: 'consent', disconnects },
    });
    const rows = output.text().trim().split('\n');
    expect(rows[0]).toBe('Name,Phone,Consent,Line Type,DNC,Reassigned');
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual(['1', '0', '0', '', '', '']);
  });

  it('keeps the header whole beside operator list columns, whose names are longer than any row cells', async () => {
    const litigators = new DncListBuilder('list:litigators');
    litigators.add(2012340199);
    const output = collector();
    await scrubCsv(Buffer.from(input), output, {
      phoneColumn: 'Phone',
      exchange: testExchanges,
      lists: new DncSet([litigators.build('v1')]),
      reassigned: { consentColumn: 'consent', disconnects },
    });
    const rows = output.text().trim().split('\n');
    expect(rows[0]).toBe('Name,Phone,Consent,Line Type,DNC,List: litigators,Reassigned');
    expect(rows[1]).toBe('Ann,201-234-0100,2024-02-01,mobile,unchecked,0,1');
    expect(rows).toHaveLength(7);
  });

  it('is not added unless asked, and the file is as before', async () => {
    const output = collector();
    await scrubCsv(Buffer.from(input), output, { phoneColumn: 'Phone', exchange: testExchanges });
    expect(output.text().split('\n')[0]).toBe('Name,Phone,Consent,Line Type,DNC');
  });

  it('answers no data everywhere when no disconnections are imported', async () => {
    const output = collector();
    await scrubCsv(Buffer.from(input), output, {
      phoneColumn: 'Phone',
      exchange: testExchanges,
      reassigned: { consentColumn: 2, disconnects: null },
    });
    const cells = output
      .text()
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.split(',').at(-1));
    expect(cells).toEqual(['', '', '', '', '', '']);
  });

  it('refuses a file without the consent column', async () => {
    await expect(
      scrubCsv(Buffer.from(input), collector(), {
        phoneColumn: 'Phone',
        reassigned: { consentColumn: 'Opt-in', disconnects },
      }),
    ).rejects.toThrow(/No consent-date column "Opt-in"/);
  });

  it('is the same when the file is scrubbed on several threads', async () => {
    const many = Array.from({ length: 400 }, (_, i) => input.split('\n')[1 + (i % 6)]).join('\n');
    const file = Buffer.from(`Name,Phone,Consent\n${many}\n`);
    const options = {
      phoneColumn: 'Phone',
      exchange: sampleExchangeTable(),
      reassigned: { consentColumn: 'Consent', disconnects },
    };
    const one = collector();
    await scrubCsv([file], one, options);
    const threads = collector();
    await scrubCsvInParallel([file], threads, { ...options, threads: 3, partSizes: { first: 1, rest: 300 } });
    expect(threads.text()).toBe(one.text());
  });
});
