import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvError } from './csv-error.ts';
import { importedLineTypeOf, importScrubbedCsv } from './import-scrubbed-csv.ts';

async function run(csv: string, options: Parameters<typeof importScrubbedCsv>[2], write = true) {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const result = await importScrubbedCsv(Buffer.from(csv), write ? output : null, options);
  return { result, text: Buffer.concat(chunks).toString() };
}

describe('importScrubbedCsv', () => {
  it('keeps every column and adds Line Type and DNC in the product words', async () => {
    const csv =
      'Name,Phone,Type,Do Not Call\nAnn,2012345678,Mobile,0\nBob,(201) 234-5678,toll free,yes\nCid,2023334444,Wireless,clean\n';
    const { result, text } = await run(csv, { phoneColumn: 'phone', lineTypeColumn: 'Type', dncColumn: 3 });
    expect(text).toBe(
      [
        'Name,Phone,Type,Do Not Call,Line Type,DNC',
        'Ann,2012345678,Mobile,0,mobile,0',
        'Bob,(201) 234-5678,toll free,yes,toll_free,1',
        'Cid,2023334444,Wireless,clean,mobile,0',
        '',
      ].join('\n'),
    );
    expect(result).toMatchObject({
      rows: 3,
      duplicates: 1,
      lineTypes: { mobile: 2, toll_free: 1 },
      dncStatus: { clean: 2, dnc: 1 },
      problems: [],
    });
  });

  it("takes this product's own result files: DNC `unchecked` and blank stay so, never clean", async () => {
    const csv =
      'Phone,Line Type,DNC\n2012345678,mobile,unchecked\n2015550123,invalid,\n2023334444,landline,0\n';
    const { result, text } = await run(csv, { phoneColumn: 0, lineTypeColumn: 1, dncColumn: 2 });
    expect(result.problems).toEqual([]);
    expect(text.split('\n').slice(1, 4)).toEqual([
      '2012345678,mobile,unchecked,mobile,unchecked',
      '2015550123,invalid,,invalid,',
      '2023334444,landline,0,landline,0',
    ]);
    expect(result.dncStatus).toEqual({ clean: 1, unchecked: 1 });
  });

  it('leaves DNC empty without a DNC column: unknown is not clean', async () => {
    const { result, text } = await run('Phone,LT\n2012345678,landline\n', {
      phoneColumn: 0,
      lineTypeColumn: 'LT',
    });
    expect(text).toBe('Phone,LT,Line Type,DNC\n2012345678,landline,landline,\n');
    expect(result.dncStatus).toEqual({});
  });

  it('reports every unknown value with its rows and writes nothing', async () => {
    const csv = 'Phone,LT,DNC\n2012345678,fax,0\n2012345679,mobile,maybe\n2012345670,fax,1\n2012345671,,0\n';
    const { result, text } = await run(
      csv,
      { phoneColumn: 'Phone', lineTypeColumn: 'LT', dncColumn: 'DNC' },
      false,
    );
    expect(text).toBe('');
    expect(result.problemRows).toBe(4);
    expect(result.problems).toEqual([
      { column: 'line_type', value: 'fax', rows: [2, 4], count: 2 },
      { column: 'dnc', value: 'maybe', rows: [3], count: 1 },
      { column: 'line_type', value: '', rows: [5], count: 1 },
    ]);
  });

  it('neutralises cells a spreadsheet would run, and keeps numbers as data', async () => {
    const { text } = await run('Phone,Note,LT\n+1 201 234 5678,=cmd|calc,voip\n', {
      phoneColumn: 0,
      lineTypeColumn: 2,
    });
    expect(text).toBe("Phone,Note,LT,Line Type,DNC\n+1 201 234 5678,'=cmd|calc,voip,voip,\n");
  });

  it('names a missing column and refuses an empty file', async () => {
    await expect(
      run('Phone,X\n1,mobile\n', { phoneColumn: 'Phone', lineTypeColumn: 'Type' }),
    ).rejects.toThrow(/No "Type" column/);
    await expect(run('', { phoneColumn: 0, lineTypeColumn: 1 })).rejects.toBeInstanceOf(CsvError);
  });

  it('reads line types in any case and spacing, and refuses carrier categories', () => {
    expect(importedLineTypeOf(' TOLL-FREE ')).toBe('toll_free');
    expect(importedLineTypeOf('Unknown Geographic')).toBe('unknown_geographic');
    expect(importedLineTypeOf('CLEC')).toBeNull();
  });
});
