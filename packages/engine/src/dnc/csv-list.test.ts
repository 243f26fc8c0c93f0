import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamOf, zipOf } from '@scrub/test-fixtures/dnc';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.ts';
import { importDncCsv, importInternalDncList, importStateDncList } from './csv-list.ts';

async function refusal(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

// A state list as a state might publish it: a header, the number as people write it.
const TEXAS = [
  'Last Name,First Name,Phone Number,Registered',
  'Garza,Ana,(512) 555-0142,2024-01-15',
  'Nguyen,Bao,512.555.0143,2024-02-01',
  '"Smith, Jr.",Carl,+1 512 555 0144,2024-03-09',
  'Lee,Dana,5125550145.0,2024-04-30',
].join('\n');

describe('importStateDncList', () => {
  it('reads the number column by header name, as people and spreadsheets write numbers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scrub-dnc-'));
    try {
      const path = join(dir, 'tx.csv');
      await writeFile(path, TEXAS);
      const { list, report } = await importStateDncList(path, {
        state: 'TX',
        column: 'phone number',
        version: '2025-05',
      });
      expect(list.name).toBe('state:TX');
      expect(list.version).toBe('2025-05');
      expect([...list.numbers()]).toEqual([5125550142, 5125550143, 5125550144, 5125550145]);
      expect(report).toMatchObject({ source: 'tx.csv', rowsRead: 4, rowsUsed: 4, problemCount: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a header without the column, naming the columns it has, in either mode', async () => {
    for (const mode of ['strict', 'partial'] as const) {
      const error = await refusal(
        importStateDncList(streamOf(TEXAS), { state: 'TX', column: 'Telephone', mode }),
      );
      expect(error.problems).toEqual([
        {
          line: 1,
          message:
            'no column "Telephone" in the header (columns: "Last Name", "First Name", "Phone Number", "Registered")',
        },
      ]);
    }
    await expect(importStateDncList(streamOf(TEXAS), { state: 'Texas', column: 'Phone' })).rejects.toThrow(
      RangeError,
    );
  });
});

// An account's suppression list: no header, the number in the second column; a quoted note
// spanning two lines moves every later line down one.
const INTERNAL = [
  'a-1,2015550123',
  'a-2,"201-555-0124 x12"',
  'a-3,201-555-01',
  '"a-4 says\nnever call",2015550125',
  'a-5,',
  'a-6,+44 20 7946 0958',
  'a-7,2.01555E+09',
  'a-8',
  'a-9,1 (201) 555-0126',
].join('\n');

describe('importInternalDncList', () => {
  it('strict: refuses bad cells, each with its line and the reason parsePhone gives', async () => {
    const error = await refusal(
      importInternalDncList(streamOf(INTERNAL, 9), { account: 'acct_42', column: 1 }),
    );
    expect(error.problems.map((problem) => [problem.line, problem.message.slice(0, 40)])).toEqual([
      [3, 'Too short: "201-555-01" has 8 digits; a '],
      [6, 'Empty: no phone number'],
      [7, 'Not a US number: "+44 20 7946 0958" has '],
      [8, 'Scientific notation "2.01555E+09" keeps '],
      [9, 'the row has 1 field, no column 1'],
    ]);
  });

  it('partial: imports the good rows as internal:<account>, reporting the rest', async () => {
    const { list, report } = await importInternalDncList(streamOf(INTERNAL, 9), {
      account: 'acct_42',
      column: 1,
      mode: 'partial',
    });
    expect(list.name).toBe('internal:acct_42');
    expect([...list.numbers()]).toEqual([2015550123, 2015550124, 2015550125, 2015550126]);
    expect(report.rowsRead).toBe(9);
    expect(report.rowsUsed).toBe(4);
    expect(report.problems.map((problem) => problem.line)).toEqual([3, 6, 7, 8, 9]);
  });

  it('reads other delimiters, a header by index, and zipped CSV', async () => {
    const text = 'id;phone\n1;2015550123\n2;(201) 555-0124\n';
    const { list } = await importDncCsv(zipOf([{ name: 'suppress.csv', text }]), {
      name: 'internal:acct_7',
      column: 1,
      header: true,
      delimiter: ';',
    });
    expect([...list.numbers()]).toEqual([2015550123, 2015550124]);
  });

  it('refuses a quoted field that never closes, at the line it opens', async () => {
    const error = await refusal(
      importInternalDncList(Buffer.from('a,2015550123\nb,"2015550124\nc,2015550125\n'), {
        account: 'x',
        column: 1,
      }),
    );
    expect(error.problems).toEqual([
      { line: 2, message: 'a quoted field opens in this row and is never closed' },
    ]);
  });
});
