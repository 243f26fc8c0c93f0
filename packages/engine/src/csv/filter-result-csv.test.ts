import { describe, expect, it } from 'vitest';
import { DncList } from '../dnc/list.ts';
import { DncSet } from '../dnc/set.ts';
import { collector, splitAt, testExchanges } from './csv-fixtures.ts';
import type { CsvInput } from './csv-input.ts';
import { type FilterResultCsvOptions, filterResultCsv } from './filter-result-csv.ts';
import { scrubCsv } from './scrub-csv.ts';

const RESULT = [
  'Name,Phone,Line Type,DNC',
  'Ann,2012345678,mobile,0',
  'Bob,2013456789,landline,1',
  '"Cy, Jr.","2014567890",voip,0',
  'Dee,8003569377,toll_free,1',
  'Eve,201-555-0123,invalid,',
  'Fay,2019876543,unknown_geographic,0',
  'Gil,5127360100,unknown_geographic,unchecked',
  '',
].join('\r\n');

async function filter(input: CsvInput | string, options: FilterResultCsvOptions) {
  const output = collector();
  const counts = await filterResultCsv(
    typeof input === 'string' ? Buffer.from(input) : input,
    output,
    options,
  );
  return {
    names: output
      .text()
      .split('\r\n')
      .slice(1, -1)
      .map((row) => row.split(',')[0]),
    text: output.text(),
    counts,
  };
}

describe('filterResultCsv', () => {
  it('keeps rows of any of the line types asked for, the header first, rows byte for byte', async () => {
    const { text, counts } = await filter(RESULT, { lineTypes: ['mobile', 'voip'] });
    expect(text).toBe(
      'Name,Phone,Line Type,DNC\r\nAnn,2012345678,mobile,0\r\n"Cy, Jr.","2014567890",voip,0\r\n',
    );
    expect(counts).toEqual({ rows: 7, kept: 2 });
  });

  it('filters on DNC, and on both together', async () => {
    expect((await filter(RESULT, { dnc: '1' })).names).toEqual(['Bob', 'Dee']);
    // Clean means checked and on no list: an unchecked number is never among the clean rows.
    expect((await filter(RESULT, { dnc: '0' })).names).toEqual(['Ann', '"Cy', 'Fay']);
    expect((await filter(RESULT, { dnc: '0', lineTypes: ['landline', 'voip'] })).names).toEqual(['"Cy']);
  });

  it('matches a substring in any case, as the seed says, and treats all and empty as no filter', async () => {
    expect((await filter(RESULT, { lineTypes: ['LAND'] })).names).toEqual(['Bob']);
    expect((await filter(RESULT, { lineTypes: ['toll_free'] })).names).toEqual(['Dee']);
    const everything = await filter(RESULT, { lineTypes: ['all'], dnc: 'all' });
    expect(everything.text).toBe(RESULT);
    expect((await filter(RESULT, { lineTypes: [], dnc: ' ' })).text).toBe(RESULT);
  });

  it('reads the columns scrubbing added, whatever the file looked like', async () => {
    const input =
      '\uFEFFName;Phone;Note\nAnn;2012345678\nBob;2013456789;x;extra\n"=Cy";2014567890;"two\nlines"\n';
    const scrubbed = collector();
    await scrubCsv(Buffer.from(input), scrubbed, {
      phoneColumn: 'Phone',
      exchange: testExchanges,
      dnc: new DncSet([DncList.empty('federal', 'v1')]),
    });
    const output = collector();
    const counts = await filterResultCsv(scrubbed.bytes(), output, { lineTypes: ['landline', 'voip'] });
    expect(output.text()).toBe(
      '\uFEFFName;Phone;Note;Line Type;DNC\nBob;2013456789;x;landline;0;extra\n"\'=Cy";2014567890;"two\nlines";voip;0\n',
    );
    expect(counts).toEqual({ rows: 3, kept: 2 });
  });

  it('uses the last Line Type column of a file scrubbed twice', async () => {
    const twice = 'Phone,Line Type,DNC,Line Type,DNC\r\n2012345678,landline,1,mobile,0\r\n';
    expect((await filter(twice, { lineTypes: ['mobile'], dnc: '0' })).counts.kept).toBe(1);
    expect((await filter(twice, { lineTypes: ['landline'] })).counts.kept).toBe(0);
  });

  it('gives the same output however the file is split', async () => {
    const long = `${RESULT}${RESULT.split('\r\n').slice(1).join('\r\n').repeat(8)}`;
    const whole = await filter(long, { lineTypes: ['mobile', 'voip'], dnc: '0' });
    for (let offset = 1; offset < long.length; offset += 3) {
      const split = await filter(splitAt(Buffer.from(long), [offset, offset + 5]), {
        lineTypes: ['mobile', 'voip'],
        dnc: '0',
      });
      expect(split.text, `split at ${offset}`).toBe(whole.text);
    }
  });

  it('filters on the calling window (Callable Now), with the other filters', async () => {
    const withWindow = [
      'Name,Phone,Line Type,DNC,Time Zone,Callable Now',
      'Ann,2012345678,mobile,0,America/New_York,1',
      'Bob,2133456789,mobile,0,America/Los_Angeles,0',
      'Cy,2014567890,landline,1,America/New_York,1',
      'Eve,201-555-0123,invalid,,,',
      '',
    ].join('\r\n');
    expect((await filter(withWindow, { callableNow: '1' })).names).toEqual(['Ann', 'Cy']);
    expect((await filter(withWindow, { callableNow: '0' })).names).toEqual(['Bob']);
    expect((await filter(withWindow, { callableNow: '1', dnc: '0' })).names).toEqual(['Ann']);
    expect((await filter(withWindow, { callableNow: 'all' })).text).toBe(withWindow);
    await expect(filter(RESULT, { callableNow: '1' })).rejects.toMatchObject({
      code: 'csv_column_not_found',
      message: 'No "Callable Now" column in the header row: is this a scrubbed result file?',
    });
  });

  it('refuses a file without the columns it filters on, and an empty file', async () => {
    await expect(filter('Name,Phone\r\nAnn,2012345678\r\n', { dnc: '0' })).rejects.toMatchObject({
      code: 'csv_column_not_found',
      message: 'No "DNC" column in the header row: is this a scrubbed result file?',
    });
    await expect(filter('', {})).rejects.toMatchObject({ code: 'csv_empty', message: 'Csv is empty' });
  });
});
