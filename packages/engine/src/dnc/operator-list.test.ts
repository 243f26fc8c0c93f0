import { streamOf } from '@scrub/test-fixtures/dnc';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.ts';
import { importOperatorList, operatorListNameProblem } from './operator-list.ts';

// Litigator lists as vendors ship them: synthetic numbers, the vendors' usual shapes.
const WITH_CASES = [
  'Name,Case Number,State,Phone Number,Filed',
  '"Doe, John",1:24-cv-00017,NJ,(201) 234-0001,2024-01-15',
  'Roe Richard,2:23-cv-10442,TX,+1 512 736 0100,2023-11-02',
].join('\r\n');

const PHONE_FIRST = ['phone,name', '2012340002,A. Plaintiff', '201.234.0003,B. Plaintiff'].join('\n');

const NO_HEADER = ['2012340004', '(201) 234-0005', '1-201-234-0006', ''].join('\n');

async function numbersOf(text: string, options: { column?: string | number } = {}) {
  const { list, report } = await importOperatorList(streamOf(text), { name: 'litigators', ...options });
  return { name: list.name, numbers: [...list.numbers()], report };
}

describe('importOperatorList', () => {
  it('finds the phone column under its usual header names, among other columns', async () => {
    expect(await numbersOf(WITH_CASES)).toMatchObject({
      name: 'list:litigators',
      numbers: [2012340001, 5127360100],
      report: { rowsRead: 2, rowsUsed: 2, problemCount: 0 },
    });
    expect((await numbersOf(PHONE_FIRST)).numbers).toEqual([2012340002, 2012340003]);
    expect((await numbersOf('Telephone\n2012340007\n')).numbers).toEqual([2012340007]);
  });

  it('reads one number per line without a header, in any common spelling', async () => {
    expect(await numbersOf(NO_HEADER)).toMatchObject({
      numbers: [2012340004, 2012340005, 2012340006],
      report: { rowsRead: 3, rowsUsed: 3 },
    });
  });

  it('takes the column the operator names over its guess', async () => {
    const text = 'Number,Alt\n2012340008,2012340009\n';
    expect((await numbersOf(text, { column: 'alt' })).numbers).toEqual([2012340009]);
  });

  it('refuses a file with no phone column, saying how to name one', async () => {
    const error = await importOperatorList(streamOf('Name,Case\nDoe,1:24-cv-1\n'), { name: 'x' }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems[0]!.message).toMatch(/no phone column.*--column/);
  });

  it('names lists with lowercase letters, digits and dashes only', async () => {
    expect(operatorListNameProblem('tcpa-litigators-2')).toBeNull();
    for (const bad of ['Litigators', 'my list', 'list:x', '', '-x', 'a_b']) {
      expect(operatorListNameProblem(bad)).toMatch(/lowercase letters, digits and dashes/);
    }
    await expect(importOperatorList(streamOf('2012340001\n'), { name: 'Bad Name' })).rejects.toThrow(
      /cannot name a list/,
    );
  });
});
