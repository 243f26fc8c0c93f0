import { describe, expect, it } from 'vitest';
import { indexResultCsv, readResultRows } from './result-rows.ts';

const RESULT = [
  'Name,Phone,Line Type,DNC',
  'Ann,2012345678,mobile,0',
  '',
  '"Bob ""B""\r\nSmith",2013456789,landline,1',
  '"Cy, Jr.","2014567890",voip,0',
  'Dee,8003569377,toll_free,1',
  'Eve,201-555-0123,invalid,',
  'Gil,5127360100,unknown_geographic,unchecked',
  '',
].join('\r\n');

/** Reads rows `from` to `to` (0-based, `to` excluded) through the index, as a ranged read would. */
function rowsThrough(file: Buffer, index: Awaited<ReturnType<typeof indexResultCsv>>, block: number) {
  const start = index.offsets[block]!;
  const end = index.offsets[block + 1]!;
  return readResultRows(file.subarray(start, end), index);
}

describe('a result file’s page index', () => {
  it('finds where each block of rows starts, with each row’s line type and DNC, blank lines left out', async () => {
    const file = Buffer.from(RESULT);
    const index = await indexResultCsv(file, { every: 2 });
    expect(index.header).toEqual(['Name', 'Phone', 'Line Type', 'DNC']);
    expect(index.rows).toBe(6);
    expect(index.lineTypes).toBe('mlvtiu');
    expect(index.dnc).toBe('0101--');
    expect(index.offsets).toHaveLength(4);
    expect(index.offsets.at(-1)).toBe(file.length);
    expect(rowsThrough(file, index, 0)).toEqual([
      ['Ann', '2012345678', 'mobile', '0'],
      ['Bob "B"\r\nSmith', '2013456789', 'landline', '1'],
    ]);
    expect(rowsThrough(file, index, 2).map((row) => row[0])).toEqual(['Eve', 'Gil']);
  });

  it('counts a byte-order mark in the offsets, and reads a file with no rows under its header', async () => {
    const file = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Phone;Line Type;DNC\nx;mobile;1\n'),
    ]);
    const index = await indexResultCsv(file);
    expect(index.separator).toBe(';');
    expect(readResultRows(file.subarray(index.offsets[0], index.offsets[1]), index)).toEqual([
      ['x', 'mobile', '1'],
    ]);
    expect((await indexResultCsv(Buffer.from('Phone,Line Type,DNC\n'))).rows).toBe(0);
  });

  it('reads a file streamed in small pieces as one given whole', async () => {
    const file = Buffer.from(RESULT);
    const pieces = Array.from({ length: Math.ceil(file.length / 7) }, (_, i) =>
      file.subarray(i * 7, i * 7 + 7),
    );
    expect(await indexResultCsv(pieces, { every: 2 })).toEqual(await indexResultCsv(file, { every: 2 }));
  });
});
