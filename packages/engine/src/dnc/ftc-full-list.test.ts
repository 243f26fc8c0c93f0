import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { exchangeNumbers, fullListText, streamOf, zipOf } from '@scrub/test-fixtures/dnc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.ts';
import { importFtcFullList } from './ftc-full-list.ts';
import { DncSet } from './set.ts';

const NUMBERS = [
  2015550123,
  2125550142,
  9895550100,
  ...exchangeNumbers(212_736, 1_500),
  ...exchangeNumbers(415_867, 300),
];
const TEXT = fullListText(NUMBERS);
const sorted = (numbers: readonly number[]) => [...new Set(numbers)].sort((a, b) => a - b);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scrub-dnc-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

describe('importFtcFullList', () => {
  it('reads AAA,NNNNNNN lines from a file into a list named federal, versioned by its content', async () => {
    const path = join(dir, 'full.txt');
    await writeFile(path, TEXT);
    const { list, report } = await importFtcFullList(path);

    expect([...list.numbers()]).toEqual(sorted(NUMBERS));
    expect(list.name).toBe('federal');
    const sha256 = createHash('sha256').update(TEXT).digest('hex');
    expect(list.version).toBe(sha256.slice(0, 12));
    expect(report).toEqual({
      source: 'full.txt',
      mode: 'strict',
      version: sha256.slice(0, 12),
      rowsRead: NUMBERS.length,
      rowsUsed: NUMBERS.length,
      problems: [],
      problemCount: 0,
      sha256,
    });
  });

  it('reads the same list from bytes, from a stream cut anywhere, with CRLF, a BOM and blank lines', async () => {
    const expected = sorted(NUMBERS);
    for (const chunkSize of [1, 5, 11, 12, 13, 4096]) {
      const { list } = await importFtcFullList(streamOf(TEXT, chunkSize));
      expect([...list.numbers()]).toEqual(expected);
    }
    const crlf = `\uFEFF${fullListText(NUMBERS, '\r\n')}\r\n\n  \n`;
    for (const chunkSize of [1, 7, 12, 13, 1000]) {
      const { list, report } = await importFtcFullList(streamOf(crlf, chunkSize), { version: '2025-06-01' });
      expect([...list.numbers()]).toEqual(expected);
      expect(report.rowsRead).toBe(NUMBERS.length);
      expect(list.version).toBe('2025-06-01');
    }
    const { list } = await importFtcFullList(Buffer.from('201,5550123'));
    expect([...list.numbers()]).toEqual([2015550123]);
  });

  it('reads the zip the FTC serves, from a path or bytes, every file in it, stored or deflated', async () => {
    const zip = zipOf([{ name: 'DNC_Full_List.txt', text: TEXT }]);
    const path = join(dir, 'full.zip');
    await writeFile(path, zip);
    const fromPath = await importFtcFullList(path);
    expect([...fromPath.list.numbers()]).toEqual(sorted(NUMBERS));
    expect(fromPath.report.source).toBe('full.zip');
    expect(fromPath.report.sha256).toBe(createHash('sha256').update(TEXT).digest('hex'));

    const split = zipOf([
      { name: 'lists/', text: '', method: 'store' },
      { name: 'lists/201.txt', text: fullListText([2015550123, 2015550124]), method: 'store' },
      { name: 'lists/989.txt', text: fullListText([9895550100]) },
    ]);
    const fromBytes = await importFtcFullList(split);
    expect([...fromBytes.list.numbers()]).toEqual([2015550123, 2015550124, 9895550100]);
  });

  it('reads gzip, from a file or a stream', async () => {
    const path = join(dir, 'full.txt.gz');
    await writeFile(path, gzipSync(TEXT));
    expect([...(await importFtcFullList(path)).list.numbers()]).toEqual(sorted(NUMBERS));
    const { list } = await importFtcFullList(streamOf(gzipSync(TEXT), 100));
    expect([...list.numbers()]).toEqual(sorted(NUMBERS));
  });

  const BAD = [
    '201,5550123',
    '201-555-0124',
    '2015550125',
    '',
    '101,5550126',
    '201,1550127',
    '201,555012',
    '201,5550128,extra',
    'area,number',
    '202,5550129',
  ].join('\n');

  it('strict: refuses a file with bad rows, listing each with its line', async () => {
    const error = await refusal(importFtcFullList(streamOf(BAD, 3), { source: 'registry.txt' }));
    expect(error.source).toBe('registry.txt');
    expect(error.problems.map((problem) => problem.line)).toEqual([2, 3, 5, 6, 7, 8, 9]);
    expect(error.problems[0]!.message).toBe(
      'expected "AAA,NNNNNNN" (a 3-digit area code, a comma and the 7 digits after it), found "201-555-0124"',
    );
    expect(error.problems[2]!.message).toBe(
      'area code 101 in "101,5550126" does not exist: area codes start with a digit from 2 to 9',
    );
    expect(error.problems[3]!.message).toBe(
      'exchange 155 in "201,1550127" does not exist: exchanges start with a digit from 2 to 9',
    );
    expect(error.message).toMatch(/^registry\.txt: 7 problems\n {2}line 2: /);
  });

  it('partial: imports the good rows and reports the bad ones with their lines', async () => {
    const { list, report } = await importFtcFullList(streamOf(BAD, 4), { mode: 'partial' });
    expect([...list.numbers()]).toEqual([2015550123, 2025550129]);
    expect(report.rowsRead).toBe(9);
    expect(report.rowsUsed).toBe(2);
    expect(report.problemCount).toBe(7);
    expect(report.problems.map((problem) => problem.line)).toEqual([2, 3, 5, 6, 7, 8, 9]);
  });

  it('partial: still refuses a file with more bad rows than maxProblems, and stops reading it', async () => {
    const text = `${'garbage\n'.repeat(50)}201,5550123\n`;
    const error = await refusal(importFtcFullList(streamOf(text), { mode: 'partial', maxProblems: 10 }));
    expect(error.problems).toHaveLength(12);
    expect(error.problems.at(-1)!.message).toMatch(/^more than 10 bad rows \(stopped reading here\)/);
    const { report } = await importFtcFullList(streamOf(text), { mode: 'partial', maxProblems: 50 });
    expect(report.rowsUsed).toBe(1);
  });

  it('names the file inside a zip holding several, beside the line', async () => {
    const zip = zipOf([
      { name: '201.txt', text: '201,5550123\n' },
      { name: '202.txt', text: '202,5550123\n202,555012x\n' },
    ]);
    const error = await refusal(importFtcFullList(zip, { source: 'dnc.zip' }));
    expect(error.problems).toEqual([
      {
        line: 2,
        message:
          '202.txt: expected "AAA,NNNNNNN" (a 3-digit area code, a comma and the 7 digits after it), found "202,555012x"',
      },
    ]);
  });

  it('refuses a damaged zip, a zip as a stream, and a zip with no files', async () => {
    const damaged = zipOf([{ name: 'full.txt', text: TEXT }], { corruptCrc: true });
    expect((await refusal(importFtcFullList(damaged))).problems.at(-1)!.message).toMatch(
      /damaged \(CRC-32 mismatch\)/,
    );
    const truncated = zipOf([{ name: 'full.txt', text: TEXT }]).subarray(0, 200);
    expect((await refusal(importFtcFullList(truncated))).problems[0]!.message).toMatch(
      /^not a readable zip archive/,
    );
    const streamed = await refusal(importFtcFullList(streamOf(zipOf([{ name: 'full.txt', text: TEXT }]))));
    expect(streamed.problems[0]!.message).toMatch(/give it as a file path or as bytes/);
    expect((await refusal(importFtcFullList(zipOf([])))).problems[0]!.message).toBe(
      'the zip archive holds no files',
    );
  });

  it('leaves the live list and the set answering from it untouched when an import is refused', async () => {
    const live = (await importFtcFullList(Buffer.from(TEXT), { version: 'live' })).list;
    const set = new DncSet([live]);
    const before = Buffer.from(new Uint8Array(live.buffer)).toString('base64');

    await refusal(importFtcFullList(Buffer.from(`${TEXT}999,5550100\nbroken\n`)));

    expect(set.lists[0]).toBe(live);
    expect(live.version).toBe('live');
    expect(Buffer.from(new Uint8Array(live.buffer)).toString('base64')).toBe(before);
    expect(set.mask(9995550100)).toBe(0);
    expect(set.mask(2015550123)).toBe(1);
  });
});
