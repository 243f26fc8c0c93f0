import { describe, expect, it } from 'vitest';
import { DncListBuilder } from '../dnc/builder.ts';
import { DncSet } from '../dnc/set.ts';
import { sampleExchangeTable } from '../exchange/sample.ts';
import { CsvError } from './csv-error.ts';
import { collector } from './csv-fixtures.ts';
import { CsvPartThreads, warmPartThreadIds } from './csv-part-threads.ts';
import type { CsvPartSizes } from './csv-parts.ts';
import { scrubCsv } from './scrub-csv.ts';
import { scrubCsvInParallel } from './scrub-csv-parallel.ts';
import type { ScrubCsvOptions } from './scrub-options.ts';

const exchange = sampleExchangeTable();
const builder = new DncListBuilder('federal');
for (let i = 0; i < 50; i++) builder.add(2012340000 + i * 7);
const dnc = new DncSet([builder.build('v1')]);

const phone = (i: number) => `(201) 234-${String(i % 10_000).padStart(4, '0')}`;

/**
 * Rows made to break a split: quoted fields holding line breaks, separators and doubled quotes
 * (so a line break is often not a record's end), quotes inside unquoted fields, formula cells,
 * short rows (unreadable), blank lines, and numbers that come back hundreds of rows later (a
 * duplicate in another part than its first sighting).
 */
function leads(count: number, lineEnding = '\r\n'): string {
  const rows = ['Name,Notes,Phone,Formula'];
  for (let i = 0; i < count; i++) {
    const kind = i % 9;
    if (kind === 0)
      rows.push(`"Lee${lineEnding}Ann",  "a ""quoted"" note,${lineEnding}two lines",${phone(i % 300)},=1+1`);
    else if (kind === 1) rows.push(`Bob 5" tall,plain,"${phone(i)}",@cmd`);
    else if (kind === 2) rows.push('');
    else if (kind === 3) rows.push(`short row ${i}`);
    else if (kind === 4)
      rows.push(`"${lineEnding}",${lineEnding === '\r\n' ? '"\r\n"' : '""'},${phone(i % 300)},"-2"`);
    else if (kind === 5) rows.push(`Dup,,2012340007,`);
    else if (kind === 6) rows.push(`Junk,,12345,+x`);
    else rows.push(`Name ${i},"Street ${i}, Apt 2",${phone(i)},${i}`);
  }
  return rows.join(lineEnding);
}

const base: ScrubCsvOptions = {
  phoneColumn: 'Phone',
  exchange,
  dnc,
  evaluatedAt: Date.UTC(2026, 10, 25, 18),
};
const SMALL: CsvPartSizes = { first: 1, rest: 300 };

/**
 * The parallel scrub's output and result are scrubCsv's. Parts go to the threads only (from
 * source a thread takes long to load, and the caller would scrub a small file alone meanwhile),
 * and then also to the caller's thread.
 */
async function expectSame(file: Buffer, options: Partial<ScrubCsvOptions> = {}, sizes = SMALL) {
  const one = collector();
  const expected = await scrubCsv([file], one, { ...base, ...options });
  for (const inPlace of [false, true]) {
    const many = collector();
    const actual = await scrubCsvInParallel([file], many, {
      ...base,
      ...options,
      exchange,
      threads: 3,
      partSizes: sizes,
      inPlace,
    });
    expect(many.text()).toBe(one.text());
    expect(many.bytes().equals(one.bytes())).toBe(true);
    expect(actual).toEqual(expected);
  }
  return expected;
}

async function refusals(file: Buffer, options: Partial<ScrubCsvOptions> = {}, sizes = SMALL) {
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );
  const one = (await settle(scrubCsv([file], collector(), { ...base, ...options }))) as CsvError;
  const many = (await settle(
    scrubCsvInParallel([file], collector(), {
      ...base,
      ...options,
      exchange,
      threads: 2,
      partSizes: sizes,
      inPlace: false,
    }),
  )) as CsvError;
  expect(one).toBeInstanceOf(CsvError);
  expect(many).toBeInstanceOf(CsvError);
  expect({ code: many.code, message: many.message, line: many.line }).toEqual({
    code: one.code,
    message: one.message,
    line: one.line,
  });
  return many;
}

// Each scrub starts its threads, which load the engine from source under type stripping: seconds
// on a busy machine.
describe('scrubCsvInParallel', { timeout: 60_000 }, () => {
  it('writes the same bytes and counts as scrubCsv, whatever the part size: quoted line breaks at cuts, duplicates across parts', async () => {
    const file = Buffer.from(`\ufeff${leads(2000)}`);
    for (const rest of [37, 4096]) {
      const result = await expectSame(file, {}, { first: 1, rest });
      expect(result.duplicates).toBeGreaterThan(400);
      expect(result.unreadableRows).toBe(222);
      expect(result.unreadableLines).toHaveLength(100);
      expect(result.lineTypes.invalid).toBeGreaterThan(0);
      expect(result.dncStatus.dnc).toBeGreaterThan(0);
    }
  });

  it('writes the optional columns as of one evaluation time, LF files with a trailing line break', async () => {
    await expectSame(Buffer.from(`${leads(600, '\n')}\n`), { columns: ['timezone', 'callable_now'] });
  });

  it('counts one number in every row once, whichever part it is in', async () => {
    const file = Buffer.from(`Phone\r\n${Array.from({ length: 3000 }, () => '2012345678').join('\r\n')}\r\n`);
    const result = await expectSame(file);
    expect(result.uniqueNumbers).toBe(1);
    expect(result.duplicates).toBe(2999);
  });

  it('without a header, with a semicolon, with CR line breaks, and as UTF-16', async () => {
    const rows = Array.from({ length: 800 }, (_, i) => `"n;${i}\r";${phone(i % 250)}`);
    await expectSame(Buffer.from(rows.join('\r')), { phoneColumn: 1, header: false });
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(leads(500), 'utf16le')]);
    await expectSame(utf16);
  });

  it('finds the header past blank lines longer than the first part, and writes it with the first rows only', async () => {
    const file = Buffer.from(
      `${'\r\n'.repeat(500)}Name,Phone\r\n${',\r\n'.repeat(400)}Ann,2012345678\r\nBob,2012345679`,
    );
    await expectSame(file);
  });

  it('scrubs a file smaller than a part, and a one-row file', async () => {
    await expectSame(Buffer.from(leads(30)), {}, { first: 64 * 1024, rest: 1024 * 1024 });
    await expectSame(Buffer.from('Phone\n2012345678'));
  });

  it('refuses what scrubCsv refuses, at the same line of the file', async () => {
    const file = leads(1000);
    expect((await refusals(Buffer.from(`${file}\r\nx,"never closed,2012345678`))).code).toBe(
      'csv_unclosed_quote',
    );
    const long = `${file}\r\nlong,${'x'.repeat(2000)},2012345678\r\n${file}`;
    const tooLong = await refusals(Buffer.from(long), { maxRowBytes: 1000 });
    expect(tooLong.code).toBe('csv_row_too_large');
    expect(tooLong.line).toBeGreaterThan(1000);
    expect((await refusals(Buffer.from(`Name,Phone\r\n${'\r\n'.repeat(300)}`))).code).toBe('csv_header_only');
    expect((await refusals(Buffer.from('\r\n'.repeat(300)))).code).toBe('csv_empty');
    expect((await refusals(Buffer.from(`${'\n'.repeat(400)}Name,Tel\n1,2`))).code).toBe(
      'csv_column_not_found',
    );
  });

  it('reports progress in order, and stops part way when aborted', async () => {
    const file = Buffer.from(leads(3000));
    const progress: number[] = [];
    const done = await scrubCsvInParallel([file], collector(), {
      ...base,
      exchange,
      threads: 2,
      partSizes: SMALL,
      onProgress: ({ rows }) => progress.push(rows),
    });
    expect(progress.length).toBeGreaterThan(10);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(done.rows);

    const controller = new AbortController();
    const output = collector();
    await expect(
      scrubCsvInParallel([file], output, {
        ...base,
        exchange,
        threads: 2,
        partSizes: SMALL,
        signal: controller.signal,
        onProgress: ({ rows }) => {
          if (rows > 500) controller.abort(new Error('stopped by the caller'));
        },
      }),
    ).rejects.toThrow(/stopped by the caller|abort/i);
    expect(output.destroyed).toBe(true);
    expect(output.text().length).toBeLessThan(file.length / 2);
  });

  it('fails, rather than waits, when a thread stops', async () => {
    const threads = new CsvPartThreads(1, {
      dialect: { encoding: 'utf-8', bom: false, separator: ',', lineEnding: '\n' },
      phoneColumn: 0,
      // Not a table: the thread fails as it starts.
      exchange: { format: 'not a table' } as never,
      dnc: null,
      evaluatedAt: 0,
    });
    const part = { bytes: Buffer.from('2012345678\n'), last: false };
    const shape = { header: null, columns: 1, phoneColumn: 0 };
    try {
      await expect(threads.scrub(part, shape)).rejects.toThrow(/not a shared exchange table/);
      await expect(threads.scrub(part, shape)).rejects.toThrow(/not a shared exchange table/);
      expect(threads.busy()).toBe(true);
    } finally {
      threads.close();
    }
  });

  it('scrubs the next file on the threads the one before left warm, with its own options; never on one that failed', async () => {
    const file = Buffer.from(leads(600));
    const options = { ...base, exchange, threads: 2, partSizes: SMALL, inPlace: false };
    const first = collector();
    expect(await scrubCsvInParallel([file], first, options)).toEqual(
      await scrubCsv([file], collector(), base),
    );
    const kept = warmPartThreadIds();
    expect(kept).toHaveLength(1);

    // Another file with other options and tables on the same thread: nothing of the file before is left.
    const other: ScrubCsvOptions = {
      ...base,
      dnc: undefined,
      columns: ['timezone', 'callable_now'],
      evaluatedAt: Date.UTC(2026, 10, 25, 3),
    };
    const here = collector();
    const expected = await scrubCsv([file], here, other);
    const second = collector();
    expect(await scrubCsvInParallel([file], second, { ...options, ...other, exchange })).toEqual(expected);
    expect(second.bytes().equals(here.bytes())).toBe(true);
    expect(warmPartThreadIds()).toEqual(kept);

    // A refused file stops the threads it ran on: the next file starts a new one.
    await refusals(Buffer.from('Name,Tel\n1,2'));
    expect(warmPartThreadIds()).toEqual([]);
    const third = collector();
    await scrubCsvInParallel([file], third, options);
    expect(third.bytes().equals(first.bytes())).toBe(true);
    expect(warmPartThreadIds()).not.toEqual(kept);
  });

  it("scrubs on the caller's thread alone with one thread", async () => {
    const output = collector();
    await scrubCsvInParallel([Buffer.from('Phone\n2012345678\n')], output, { ...base, exchange, threads: 1 });
    expect(output.text()).toBe('Phone,Line Type,DNC\n2012345678,landline,0\n');
  });
});
