import { exchangeNumbers, streamOf, zipOf } from '@scrub/test-fixtures/dnc';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.ts';
import { DncListBuilder } from './builder.ts';
import { applyFtcChangeList } from './ftc-change-list.ts';
import type { DncList } from './list.ts';

const DENSE = exchangeNumbers(212_736, 2_000);

function baseList(): DncList {
  const builder = new DncListBuilder('federal');
  for (const number of [2015550123, 2015550124, 3035550100, ...DENSE]) builder.add(number);
  return builder.build('2025-06-01');
}

async function refusal(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

// The default layout: area code, 7 digits, A or D, and whatever follows (a date).
const CHANGES = [
  '201,5550125,A,06/02/2025',
  '201,5550123,D,06/02/2025',
  '212,7360000,d,06/02/2025',
  '303,5550100,A,06/02/2025',
  '404,5550100,D,06/02/2025',
  '505,5550100,A,06/02/2025',
  '505,5550100,D,06/02/2025',
  '',
].join('\r\n');

describe('applyFtcChangeList', () => {
  it('applies additions and deletions in file order, as a new version; the old list is untouched', async () => {
    const base = baseList();
    const before = Buffer.from(new Uint8Array(base.buffer)).toString('base64');
    const { list, report } = await applyFtcChangeList(base, streamOf(CHANGES, 7), { version: '2025-06-02' });

    expect(list.name).toBe('federal');
    expect(list.version).toBe('2025-06-02');
    expect(list.has(2015550125)).toBe(true);
    expect(list.has(2015550123)).toBe(false);
    expect(list.has(2127360000)).toBe(false);
    expect(list.has(DENSE[1]!)).toBe(true);
    expect(list.has(5055550100)).toBe(false);
    expect(list.size).toBe(base.size - 1);
    expect(report).toMatchObject({
      rowsRead: 7,
      rowsUsed: 7,
      added: 2,
      alreadyPresent: 1,
      deleted: 3,
      notPresent: 1,
      problemCount: 0,
    });

    expect(base.version).toBe('2025-06-01');
    expect(base.has(2015550123)).toBe(true);
    expect(base.has(2015550125)).toBe(false);
    expect(Buffer.from(new Uint8Array(base.buffer)).toString('base64')).toBe(before);
  });

  it('versions the result by the base version and the change list when no version is given', async () => {
    const base = baseList();
    const first = await applyFtcChangeList(base, Buffer.from(CHANGES));
    const again = await applyFtcChangeList(base, Buffer.from(CHANGES));
    expect(first.list.version).toMatch(/^[0-9a-f]{12}$/);
    expect(again.list.version).toBe(first.list.version);
    const next = await applyFtcChangeList(first.list, Buffer.from(CHANGES));
    expect(next.list.version).not.toBe(first.list.version);
  });

  it('reads other layouts: columns, flag words, one 10-digit column, a header, another delimiter', async () => {
    const base = baseList();
    const words = 'date|number|change\n2025-06-02|2015550199|ADD\n2025-06-02|2015550124|Delete\n';
    const { list } = await applyFtcChangeList(base, Buffer.from(words), {
      layout: {
        delimiter: '|',
        areaCodeColumn: null,
        numberColumn: 1,
        flagColumn: 2,
        addFlags: ['add'],
        deleteFlags: ['delete'],
        header: true,
      },
    });
    expect(list.has(2015550199)).toBe(true);
    expect(list.has(2015550124)).toBe(false);
  });

  it('reads files of only additions or only deletions, and zipped ones', async () => {
    const base = baseList();
    const additions = zipOf([{ name: 'additions.txt', text: '"201","5550150"\n201,5550151\n' }]);
    const added = await applyFtcChangeList(base, additions, { layout: { flagColumn: null, action: 'add' } });
    expect([2015550150, 2015550151].map((number) => added.list.has(number))).toEqual([true, true]);
    const deletions = Buffer.from('201,5550150\n');
    const deleted = await applyFtcChangeList(added.list, deletions, {
      layout: { flagColumn: null, action: 'delete' },
    });
    expect(deleted.list.has(2015550150)).toBe(false);
    expect(deleted.list.has(2015550151)).toBe(true);
    await expect(applyFtcChangeList(base, deletions, { layout: { flagColumn: null } })).rejects.toThrow(
      RangeError,
    );
  });

  const BAD = [
    '201,5550125,A',
    '201,5550126',
    '201,555012X,A',
    '201,5550127,X',
    '101,5550128,A',
    '301,0550129,D',
    '202,5550130,A',
  ].join('\n');

  it('strict: refuses a change list with bad rows, with their lines, and the base keeps answering', async () => {
    const base = baseList();
    const error = await refusal(applyFtcChangeList(base, Buffer.from(BAD), { source: 'changes.txt' }));
    expect(error.problems).toEqual([
      { line: 2, message: 'expected at least 3 fields separated by ",", found 2 in "201,5550126"' },
      {
        line: 3,
        message: 'expected a 3-digit area code in column 0 and 7 digits in column 1, found "201,555012X,A"',
      },
      { line: 4, message: 'flag "X" in column 2 of "201,5550127,X" is none of "A", "D"' },
      {
        line: 5,
        message: 'area code 101 in "101,5550128,A" does not exist: it must start with a digit from 2 to 9',
      },
      {
        line: 6,
        message: 'exchange 055 in "301,0550129,D" does not exist: it must start with a digit from 2 to 9',
      },
    ]);
    expect(base.has(2015550125)).toBe(false);
    expect(base.version).toBe('2025-06-01');
  });

  it('partial: applies the good rows and reports the bad ones', async () => {
    const { list, report } = await applyFtcChangeList(baseList(), streamOf(BAD, 5), { mode: 'partial' });
    expect(list.has(2015550125)).toBe(true);
    expect(list.has(2025550130)).toBe(true);
    expect(report.rowsRead).toBe(7);
    expect(report.rowsUsed).toBe(2);
    expect(report.problems.map((problem) => problem.line)).toEqual([2, 3, 4, 5, 6]);
  });
});
