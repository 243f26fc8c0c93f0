import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { previewCsv } from './csv-preview.js';

const dir = mkdtempSync(join(tmpdir(), 'scrub-preview-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

async function preview(content: string | Buffer, maxRows = 11): Promise<string[][]> {
  const path = join(dir, `${++files}.csv`);
  writeFileSync(path, content);
  return (await previewCsv(path, maxRows)).rows;
}

describe('previewCsv', () => {
  it('reads quoted fields holding separators, quotes and line breaks', async () => {
    expect(await preview('Name,Phone,Note\r\n"Doe, Ada",2015550123,"said ""hi""\non two lines"\r\n')).toEqual(
      [
        ['Name', 'Phone', 'Note'],
        ['Doe, Ada', '2015550123', 'said "hi"\non two lines'],
      ],
    );
  });

  it('takes the most frequent separator, as the service does', async () => {
    expect(await preview('Name;Phone;City\nAda;201,555,0123;Paris\n')).toEqual([
      ['Name', 'Phone', 'City'],
      ['Ada', '201,555,0123', 'Paris'],
    ]);
    expect(await preview('Name\tPhone\nAda\t2015550123\n')).toEqual([
      ['Name', 'Phone'],
      ['Ada', '2015550123'],
    ]);
  });

  it('drops a byte-order mark and reads UTF-16', async () => {
    expect(await preview('\uFEFFPhone,Name\n2015550123,Zoë\n')).toEqual([
      ['Phone', 'Name'],
      ['2015550123', 'Zoë'],
    ]);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Phone,Name\r\n2015550123,Zoë\r\n', 'utf16le'),
    ]);
    expect(await preview(utf16)).toEqual([
      ['Phone', 'Name'],
      ['2015550123', 'Zoë'],
    ]);
  });

  it('skips blank lines, keeps a last line without a break, and stops at maxRows', async () => {
    expect(await preview('Phone\n\n2015550123\n,\n8005551234')).toEqual([
      ['Phone'],
      ['2015550123'],
      ['8005551234'],
    ]);
    expect(await preview('Phone\n1\n2\n3\n4\n', 3)).toEqual([['Phone'], ['1'], ['2']]);
  });

  it('reads only the head of a large file, leaving out a row it cut short', async () => {
    const row = `${'x'.repeat(1000)},2015550123\n`;
    const rows = await preview(`Name,Phone\n${row.repeat(200)}`, 1000);

    expect(rows.length).toBeGreaterThan(50);
    expect(rows.length).toBeLessThan(100);
    expect(rows.every((cells) => cells.length === 2)).toBe(true);
  });

  it('answers no rows for an empty file', async () => {
    expect(await preview('')).toEqual([]);
  });
});
