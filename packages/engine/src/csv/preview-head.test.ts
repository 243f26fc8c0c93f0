import { describe, expect, it } from 'vitest';
import { PREVIEW_HEAD_BYTES, previewCsvFile, previewCsvHead, sniffCsv } from './preview-head.ts';

/** The header and rows as one list, as a table shows them. */
function table(head: string | Uint8Array, options: Parameters<typeof previewCsvHead>[1] = {}): string[][] {
  const preview = previewCsvHead(head, { rows: 10, ...options });
  return preview.header === null ? preview.rows : [preview.header, ...preview.rows];
}

describe('previewCsvHead', () => {
  it('reads quoted fields holding separators, quotes and line breaks', () => {
    expect(table('Name,Phone,Note\r\n"Doe, Ada",2015550123,"said ""hi""\non two lines"\r\n')).toEqual([
      ['Name', 'Phone', 'Note'],
      ['Doe, Ada', '2015550123', 'said "hi"\non two lines'],
    ]);
  });

  it('takes the most frequent separator, as the scrubber does', () => {
    expect(table('Name;Phone;City\nAda;201,555,0123;Paris\n')).toEqual([
      ['Name', 'Phone', 'City'],
      ['Ada', '201,555,0123', 'Paris'],
    ]);
    expect(table('Name\tPhone\nAda\t2015550123\n')).toEqual([
      ['Name', 'Phone'],
      ['Ada', '2015550123'],
    ]);
  });

  it('drops a byte-order mark and reads UTF-16', () => {
    expect(table('\uFEFFPhone,Name\n2015550123,Zoë\n')).toEqual([
      ['Phone', 'Name'],
      ['2015550123', 'Zoë'],
    ]);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Phone,Name\r\n2015550123,Zoë\r\n', 'utf16le'),
    ]);
    expect(previewCsvHead(new Uint8Array(utf16))).toMatchObject({
      encoding: 'utf-16le',
      bom: true,
      lineEnding: '\r\n',
      header: ['Phone', 'Name'],
      rows: [['2015550123', 'Zoë']],
    });
  });

  it('skips blank lines, keeps a last line without a break, and stops at the rows asked for', () => {
    expect(table('Phone\n\n2015550123\n,\n8005551234')).toEqual([['Phone'], ['2015550123'], ['8005551234']]);
    expect(table('Phone\n1\n2\n3\n4\n', { rows: 2 })).toEqual([['Phone'], ['1'], ['2']]);
  });

  it('reads a head cut from a large file, leaving out the row it cut short', () => {
    const row = `${'x'.repeat(1000)},2015550123\n`;
    const file = new TextEncoder().encode(`Name,Phone\n${row.repeat(200)}`);
    const preview = previewCsvHead(file.subarray(0, PREVIEW_HEAD_BYTES), { rows: 1000, complete: false });

    expect(preview.rows.length).toBe(Math.floor((PREVIEW_HEAD_BYTES - 11) / row.length));
    expect(preview.rows.every((cells) => cells.length === 2 && cells[1] === '2015550123')).toBe(true);
  });

  it('refuses what the scrubber would refuse', () => {
    expect(() => previewCsvHead('')).toThrow(expect.objectContaining({ code: 'csv_empty' }));
    expect(() => previewCsvHead('Name,Phone\r\n')).toThrow(
      expect.objectContaining({ code: 'csv_header_only' }),
    );
    expect(() => previewCsvHead(Buffer.from('504b030414000600', 'hex'))).toThrow(
      expect.objectContaining({ code: 'csv_not_text' }),
    );
  });

  it('offers the phone column, and takes the first row as data without a header', () => {
    expect(previewCsvHead('Name,Mobile\nAnn,(201) 234-5678\n').phoneColumn).toBe(1);
    expect(previewCsvHead('2012345678,Ann\n', { header: false })).toMatchObject({
      header: null,
      columns: 2,
      phoneColumn: 0,
      rows: [['2012345678', 'Ann']],
    });
  });
});

describe('previewCsvFile', () => {
  it('reads only the head of a File', async () => {
    const rows = 'Ann,2012345678\n'.repeat(20_000);
    let read = 0;
    const file = new File([`Name,Phone\n${rows}`], 'leads.csv');
    const slice = file.slice.bind(file);
    file.slice = (start, end) => {
      read += (end ?? file.size) - (start ?? 0);
      return slice(start, end);
    };

    const preview = await previewCsvFile(file, { rows: 3 });

    expect(preview).toMatchObject({ header: ['Name', 'Phone'], phoneColumn: 1 });
    expect(preview.rows).toHaveLength(3);
    expect(read).toBe(PREVIEW_HEAD_BYTES);
  });
});

describe('sniffCsv', () => {
  it('says how the file is written, and whether its first row looks like a header', () => {
    expect(sniffCsv('"Name";"Phone"\r\n"Ann";"201-234-5678"\r\n')).toEqual({
      encoding: 'utf-8',
      bom: false,
      separator: ';',
      lineEnding: '\r\n',
      header: true,
    });
    expect(sniffCsv('Ann,201-234-5678\nBob,201-345-6789\n').header).toBe(false);
    expect(sniffCsv('Name,Zip\nAnn,07030\n').header).toBe(true);
    expect(sniffCsv('Ann,07030\n').header).toBe(false);
  });
});
