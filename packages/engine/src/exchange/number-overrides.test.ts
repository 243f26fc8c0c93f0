import { NUMBER_OVERRIDES_CSV, streamOf } from '@scrub/test-fixtures/exchange';
import { describe, expect, it } from 'vitest';
import { ClassCode } from '../classify.ts';
import { ImportError } from '../import-error.ts';
import { ExchangeTableBuilder } from './exchange-table.ts';
import { importNumberOverrides } from './number-overrides.ts';

const C = ClassCode;

describe('importNumberOverrides', () => {
  it('reads numbers as parsePhone reads them, each overriding its block and exchange', async () => {
    const builder = new ExchangeTableBuilder();
    builder.setExchange(201236, C.VOIP);
    builder.setBlock(2012365, C.MOBILE);
    const report = await importNumberOverrides(streamOf(NUMBER_OVERRIDES_CSV), builder);
    expect(report).toMatchObject({ source: 'number overrides', rowsRead: 2, rowsUsed: 2, problems: [] });
    const table = builder.build(report.version);
    expect(table.lineTypeCode(2012365000)).toBe(C.LANDLINE);
    expect(table.lineTypeCode(2012365001)).toBe(C.MOBILE);
    expect(table.lineTypeCode(2012340001)).toBe(C.VOIP);
  });

  it('reads spreadsheet forms and files without a header; a number listed twice takes its last row', async () => {
    const builder = new ExchangeTableBuilder();
    const text = '2012365000.0,mobile\n"=""201-236-5001""",landline\n12012365000,voip\n';
    const report = await importNumberOverrides(streamOf(text), builder);
    expect(report).toMatchObject({ rowsRead: 3, rowsUsed: 3 });
    const table = builder.build('twice');
    expect(table.lineTypeCode(2012365000)).toBe(C.VOIP);
    expect(table.lineTypeCode(2012365001)).toBe(C.LANDLINE);
    expect(table.stats.numbers).toBe(2);
  });

  const BAD = `phone,type
201-236-5000,mobile
2.01236E+09,mobile
201-555-0123,mobile
1-800-356-9377,mobile
(204) 987-1234,landline
201-236-5002,pager
201-236-5003,landline
`;

  it('refuses numbers that are unreadable or not US geographic, and unknown line types', async () => {
    const error = await importNumberOverrides(streamOf(BAD), new ExchangeTableBuilder()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      {
        line: 3,
        message: expect.stringMatching(/^Scientific notation "2.01236E\+09" keeps only 6 significant digits/),
      },
      {
        line: 4,
        message:
          '+12015550123 is not a valid US geographic number: Numbers 555-0100 to 555-0199 are reserved for fiction and examples in every area code',
      },
      {
        line: 5,
        message:
          '+18003569377 is not a valid US geographic number: toll-free numbers have no exchange line type to override',
      },
      {
        line: 6,
        message:
          '+12049871234 is not a valid US geographic number: Area code 204 is in Canada, outside the US: Scrub checks US numbers only',
      },
      {
        line: 7,
        message: expect.stringMatching(/^\+12012365002: line type "pager" is not mobile, landline or voip/),
      },
    ]);
  });

  it('skips bad rows in partial mode', async () => {
    const builder = new ExchangeTableBuilder();
    const report = await importNumberOverrides(streamOf(BAD), builder, { mode: 'partial' });
    expect(report).toMatchObject({ rowsRead: 7, rowsUsed: 2, problemCount: 5 });
    const table = builder.build('partial');
    expect(table.lineTypeCode(2012365000)).toBe(C.MOBILE);
    expect(table.lineTypeCode(2012365003)).toBe(C.LANDLINE);
    expect(table.lineTypeCode(2012365002)).toBe(C.UNKNOWN_GEOGRAPHIC);
  });
});
