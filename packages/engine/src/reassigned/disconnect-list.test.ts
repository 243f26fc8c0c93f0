import { mulberry32 } from '@scrub/test-fixtures';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.ts';
import { DisconnectList, dayOf } from './disconnect-list.ts';
import { importDisconnects } from './import-disconnects.ts';

const file = (text: string) => Buffer.from(text);

describe('importDisconnects', () => {
  it('reads a number and its disconnect date per row, with or without a header', async () => {
    const { list, report } = await importDisconnects(
      file(
        'phone,disconnected\n(201) 555-0100,2024-03-01\n2015550101,6/15/2024\n+1 201 555 0100,2024-05-01\n',
      ),
      { asOf: '2024-06-30', version: 'rnd-2024-06' },
    );
    expect(report).toMatchObject({ rowsRead: 3, rowsUsed: 3, problemCount: 0, version: 'rnd-2024-06' });
    expect(list.size).toBe(2);
    // A number given twice keeps its latest disconnection.
    expect(list.disconnectedOn(2015550100)).toBe(dayOf('2024-05-01'));
    expect(list.disconnectedOn(2015550101)).toBe(dayOf('2024-06-15'));
    expect(list.disconnectedOn(2015550199)).toBe(-1);
    expect(list).toMatchObject({ asOf: '2024-06-30', from: '2024-03-01' });
  });

  it('refuses a row dated after the as-of date, a bad number and a bad date, with their lines', async () => {
    const refused = await importDisconnects(
      file('2015550100,2024-07-01\nnot a number,2024-01-01\n2015550101,2024-02-30\n'),
      { asOf: '2024-06-30' },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImportError);
    expect((refused as ImportError).problems.map((problem) => problem.line)).toEqual([1, 2, 3]);
    expect((refused as ImportError).problems[0]!.message).toContain("after the file's as-of date");
  });
});

describe('DisconnectList.reassignedSince', () => {
  const list = DisconnectList.build([[2015550100, dayOf('2024-03-01')]], {
    version: 'v1',
    asOf: '2024-06-30',
    from: '2024-01-01',
  });

  it('yes: disconnected on or after the consent date', () => {
    expect(list.reassignedSince(2015550100, dayOf('2024-02-01'))).toBe(true);
    expect(list.reassignedSince(2015550100, dayOf('2024-03-01'))).toBe(true);
  });

  it('no: the file covers the consent date to its as-of date and has no disconnection since', () => {
    expect(list.reassignedSince(2015550100, dayOf('2024-03-02'))).toBe(false);
    expect(list.reassignedSince(2015550199, dayOf('2024-01-01'))).toBe(false);
    expect(list.reassignedSince(2015550199, dayOf('2024-06-30'))).toBe(false);
  });

  it('no data: a consent date after the as-of date, or before the file begins', () => {
    expect(list.reassignedSince(2015550199, dayOf('2024-07-01'))).toBeNull();
    expect(list.reassignedSince(2015550100, dayOf('2024-07-01'))).toBeNull();
    expect(list.reassignedSince(2015550199, dayOf('2023-12-31'))).toBeNull();
    // A disconnection the file holds still answers yes for an earlier consent date.
    expect(list.reassignedSince(2015550100, dayOf('2023-12-31'))).toBe(true);
  });

  it('survives the trip to a thread', () => {
    const copy = new DisconnectList(list.toShared());
    expect(copy.reassignedSince(2015550100, dayOf('2024-02-01'))).toBe(true);
  });
});

describe('DisconnectList.disconnectedOn', () => {
  it('finds every number in a large file, and no number that is not in it', () => {
    const random = mulberry32(0xd15c);
    const numbers = new Set<number>();
    // Numbers close together (one area code, neighbouring lines) as well as spread out.
    for (let i = 0; i < 20_000; i++) numbers.add(2_015_550_000 + i);
    while (numbers.size < 100_000) numbers.add(2_000_000_000 + Math.floor(random() * 7_999_999_999));
    const day = (number: number) => dayOf('2024-01-01') + (number % 365);
    const list = DisconnectList.build(
      [...numbers].map((number): [number, number] => [number, day(number)]),
      { version: 'v', from: '2024-01-01', asOf: '2024-12-31' },
    );
    for (const number of numbers) {
      if (list.disconnectedOn(number) !== day(number)) expect.fail(`${number} not found`);
    }
    let others = 0;
    for (let i = 0; i < 200_000; i++) {
      const number = 2_000_000_000 + Math.floor(random() * 7_999_999_999);
      if (numbers.has(number)) continue;
      others++;
      if (list.disconnectedOn(number) !== -1) expect.fail(`${number} found, not in the file`);
    }
    expect(others).toBeGreaterThan(190_000);
    expect(new DisconnectList(list.toShared()).disconnectedOn(2_015_550_123)).toBe(day(2_015_550_123));
  });
});
