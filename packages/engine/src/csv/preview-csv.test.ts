import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { previewCsv } from './preview-csv.ts';

describe('previewCsv', () => {
  it('says how the file is written, and shows its header and first ten rows', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `"Lee; ${i}";(201) 234-${1000 + i};NJ`);
    const input = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`Name;Mobile;State\r\n${rows.join('\r\n')}\r\n`, 'utf16le'),
    ]);
    const preview = await previewCsv(input);
    expect(preview).toMatchObject({
      encoding: 'utf-16le',
      bom: true,
      separator: ';',
      lineEnding: '\r\n',
      header: ['Name', 'Mobile', 'State'],
      columns: 3,
      phoneColumn: 1,
    });
    expect(preview.rows).toHaveLength(10);
    expect(preview.rows[0]).toEqual(['Lee; 0', '(201) 234-1000', 'NJ']);
  });

  it('takes a header row of empty cells as the header, as the scrubber does', async () => {
    const preview = await previewCsv(Buffer.from(',,\nAnn,2012345678,x\n'));
    expect(preview).toMatchObject({ header: ['', '', ''], columns: 3, rows: [['Ann', '2012345678', 'x']] });
  });

  it('shows every row when asked for more than there are, and takes the first row as data without a header', async () => {
    const preview = await previewCsv(Buffer.from('2012345678,Ann\n\n2013456789,"Bob ""B"""'), {
      header: false,
      rows: 50,
    });
    expect(preview).toMatchObject({
      header: null,
      columns: 2,
      phoneColumn: 0,
      rows: [
        ['2012345678', 'Ann'],
        ['2013456789', 'Bob "B"'],
      ],
    });
  });

  it('reads only the start of a large stream', async () => {
    let chunksRead = 0;
    async function* endless() {
      yield Buffer.from('Name,Phone\n');
      for (;;) {
        chunksRead++;
        yield Buffer.from('Ann,2012345678\n'.repeat(100));
      }
    }
    const stream = Readable.from(endless());
    const preview = await previewCsv(stream, { rows: 5 });
    expect(preview.rows).toHaveLength(5);
    expect(chunksRead).toBeLessThan(5);
    expect(stream.destroyed).toBe(true);
  });

  it.each([
    [['Name', 'Phone', 'Email'], ['Ann', '201-234-5678', 'ann@example.com'], 1],
    // The numbers decide over a name: "Phone Type" holds no numbers.
    [['Phone Type', 'Contact', 'Zip'], ['cell', '(201) 234-5678', '07030'], 1],
    // No cell reads as a number: the name is the only hint.
    [['Name', 'Telephone'], ['Ann', 'ask me'], 1],
    [['Name', 'Email'], ['Ann', 'ann@example.com'], null],
  ])('offers the phone column of %j', async (header, row, expected) => {
    const preview = await previewCsv(Buffer.from(`${header.join(',')}\n${row.join(',')}\n`));
    expect(preview.phoneColumn).toBe(expected);
  });

  it('refuses what scrubbing would refuse from the same rows', async () => {
    await expect(previewCsv(Buffer.alloc(0))).rejects.toMatchObject({
      code: 'csv_empty',
      message: 'Csv is empty',
    });
    await expect(previewCsv(Buffer.from('Name,Phone\r\n'))).rejects.toMatchObject({
      code: 'csv_header_only',
    });
    await expect(previewCsv(Buffer.from('504b030414000600', 'hex'))).rejects.toMatchObject({
      code: 'csv_not_text',
    });
  });
});
