import { OCN_LINE_TYPES_CSV, streamOf } from '@scrub/test-fixtures/exchange';
import { describe, expect, it } from 'vitest';
import { ClassCode } from '../classify.ts';
import { ImportError } from '../import-error.ts';
import { lineTypeFromWord } from './line-types.ts';
import { readOcnLineTypes } from './ocn-line-types.ts';

const C = ClassCode;

describe('lineTypeFromWord', () => {
  it('reads the product words and carrier categories in any case and spacing', () => {
    expect(lineTypeFromWord('mobile')).toBe(C.MOBILE);
    expect(lineTypeFromWord(' Wireless ')).toBe(C.MOBILE);
    expect(lineTypeFromWord('PCS')).toBe(C.MOBILE);
    expect(lineTypeFromWord('w-reseller')).toBe(C.MOBILE);
    expect(lineTypeFromWord('LANDLINE')).toBe(C.LANDLINE);
    expect(lineTypeFromWord('ilec')).toBe(C.LANDLINE);
    expect(lineTypeFromWord('CLEC')).toBe(C.LANDLINE);
    expect(lineTypeFromWord('VoIP')).toBe(C.VOIP);
    expect(lineTypeFromWord('voice_over_ip')).toBe(C.VOIP);
    expect(lineTypeFromWord('IPES')).toBe(C.VOIP);
    expect(lineTypeFromWord('toll_free')).toBeNull();
    expect(lineTypeFromWord('constructor')).toBeNull();
    expect(lineTypeFromWord('')).toBeNull();
  });
});

describe('readOcnLineTypes', () => {
  it('reads ocn,line_type with a header and other columns', async () => {
    const { lineTypes, report } = await readOcnLineTypes(streamOf(OCN_LINE_TYPES_CSV));
    expect(Object.fromEntries(lineTypes)).toEqual({
      '9001': C.MOBILE,
      '9002': C.LANDLINE,
      '9003': C.VOIP,
      '9004': C.MOBILE,
      '9005': C.LANDLINE,
      '9006': C.VOIP,
    });
    expect(report).toMatchObject({
      source: 'OCN line types',
      rowsRead: 6,
      rowsUsed: 6,
      problems: [],
      problemCount: 0,
    });
    expect(report.version).toMatch(/^[0-9a-f]{12}$/);
    expect(report.sha256.startsWith(report.version)).toBe(true);
  });

  it('reads a file without a header, and puts back leading zeros a spreadsheet dropped', async () => {
    const { lineTypes } = await readOcnLineTypes(streamOf('\uFEFF123,wireless\r\nA1B2,ilec\r\n'));
    expect(Object.fromEntries(lineTypes)).toEqual({ '0123': C.MOBILE, A1B2: C.LANDLINE });
  });

  it('finds columns by name in any order', async () => {
    const { lineTypes } = await readOcnLineTypes(
      streamOf('Company,Category,OCN\n"Synthetic, Inc.",voip,9003\n'),
    );
    expect(Object.fromEntries(lineTypes)).toEqual({ '9003': C.VOIP });
  });

  const BAD = `ocn,line_type
9001,mobile
90012,mobile
9002,fax
9001,landline
9001,mobile

9003,voip
`;

  it('refuses a file with bad rows in strict mode, naming each line', async () => {
    const error = await readOcnLineTypes(streamOf(BAD), { source: 'ocn.csv' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).source).toBe('ocn.csv');
    expect((error as ImportError).problems).toEqual([
      { line: 3, message: 'OCN "90012" is not four letters or digits' },
      {
        line: 4,
        message: expect.stringMatching(/^OCN 9002: line type "fax" is not mobile, landline or voip/),
      },
      { line: 5, message: 'OCN 9001 appears again with another line type (first on line 2)' },
    ]);
  });

  it('skips bad rows in partial mode and reports them', async () => {
    const { lineTypes, report } = await readOcnLineTypes(streamOf(BAD), { mode: 'partial' });
    expect(Object.fromEntries(lineTypes)).toEqual({ '9001': C.MOBILE, '9003': C.VOIP });
    expect(report).toMatchObject({ rowsRead: 6, rowsUsed: 3, problemCount: 3 });
    expect(report.problems.map((p) => p.line)).toEqual([3, 4, 5]);
  });

  it('refuses a file whose header it cannot read, in either mode', async () => {
    await expect(
      readOcnLineTypes(streamOf('carrier,kind\n9001,mobile\n'), { mode: 'partial' }),
    ).rejects.toThrow(/line 1: the header lacks ocn, line_type: expected "ocn,line_type"/);
    await expect(readOcnLineTypes(streamOf(''))).rejects.toThrow(/line 1: the file is empty/);
    await expect(
      readOcnLineTypes(streamOf('ocn,line_type\n9001,"mobile\n'), { mode: 'partial' }),
    ).rejects.toThrow(/line 2: a quoted field opens in this row and is never closed/);
  });
});
