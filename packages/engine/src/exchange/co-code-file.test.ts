import {
  CO_CODE_COLUMNS,
  CO_CODE_FILE,
  CO_CODE_HEADER,
  coCodeRow,
  streamOf,
} from '@scrub/test-fixtures/exchange';
import { describe, expect, it } from 'vitest';
import { ClassCode } from '../classify.ts';
import { ImportError } from '../import-error.ts';
import { importCoCodeFile } from './co-code-file.ts';
import { ExchangeTableBuilder } from './exchange-table.ts';
import type { ImportMode } from './import-session.ts';
import { type OcnLineTypes, readOcnLineTypes } from './ocn-line-types.ts';

const C = ClassCode;
const OCNS: OcnLineTypes = new Map([
  ['9001', C.MOBILE],
  ['9002', C.LANDLINE],
  ['9003', C.VOIP],
]);

async function importText(text: string, mode: ImportMode = 'strict') {
  const builder = new ExchangeTableBuilder();
  const report = await importCoCodeFile(streamOf(text, 'latin1'), builder, { ocnLineTypes: OCNS, mode });
  return { report, table: builder.build(report.version) };
}

describe('importCoCodeFile', () => {
  it("reads NANPA's tab-delimited latin1 file and joins each exchange's OCN to its line type", async () => {
    const { report, table } = await importText(CO_CODE_FILE);
    expect(report).toEqual({
      source: 'CO code file',
      version: '2025-11-26',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      rowsRead: 6,
      rowsUsed: 6,
      problems: [],
      problemCount: 0,
      withoutLineType: 1,
      notInService: 1,
    });
    expect(table.lineTypeCode(2012341234)).toBe(C.MOBILE);
    expect(table.lineTypeCode(2012351234)).toBe(C.LANDLINE); // the latin1 company name row
    expect(table.lineTypeCode(2012361234)).toBe(C.VOIP);
    expect(table.lineTypeCode(2012371234)).toBe(C.UNKNOWN_GEOGRAPHIC); // OCN not in the list
    expect(table.lineTypeCode(2012381234)).toBe(C.EXCHANGE_NOT_IN_SERVICE); // In Service N
    expect(table.lineTypeCode(2127365000)).toBe(C.LANDLINE);
    // Not listed in an area code the file covers: unassigned.
    expect(table.lineTypeCode(2017432345)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
    expect(table.lineTypeCode(2122345678)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
    // An area code the file has no row for: no answer.
    expect(table.lineTypeCode(9732345678)).toBe(C.UNKNOWN_GEOGRAPHIC);
  });

  it('takes its version from the sha256 when the header has no date, and every row in service without In Service', async () => {
    const header = CO_CODE_COLUMNS.slice(0, 10).join('\t');
    const row = coCodeRow('201-234', '9001', 'SYNTHETIC WIRELESS LLC').split('\t').slice(0, 10).join('\t');
    const { report, table } = await importText(`${header}\n${row}\n`);
    expect(report.version).toBe(report.sha256.slice(0, 12));
    expect(table.lineTypeCode(2012341234)).toBe(C.MOBILE);
  });

  const BAD = [
    CO_CODE_HEADER,
    coCodeRow('201-234', '9001', 'SYNTHETIC WIRELESS LLC'),
    coCodeRow('20-1234', '9001', 'SYNTHETIC WIRELESS LLC'),
    coCodeRow('201-134', '9001', 'SYNTHETIC WIRELESS LLC'),
    coCodeRow('201-235', '9É01', 'TÉLÉPHONE SYNTHÉTIQUE'),
    coCodeRow('201-236', '9003', 'SYNTHETIC VOICE', { inService: 'maybe' }),
    coCodeRow('201-234', '9002', 'SYNTHETIC TELEPHONE CO'),
    'NJ\t201-239',
    coCodeRow('201-240', '9002', 'SYNTHETIC TELEPHONE CO'),
  ].join('\n');

  it('refuses a file with bad rows in strict mode, naming each line, latin1 read as latin1', async () => {
    const error = await importText(BAD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).problems).toEqual([
      { line: 3, message: 'NPA-NXX "20-1234" is not an area code and exchange' },
      { line: 4, message: 'NPA-NXX 201-134: the exchange starts with 0 or 1' },
      { line: 5, message: 'NPA-NXX 201-235: OCN "9É01" is not four letters or digits' },
      { line: 6, message: 'NPA-NXX 201-236: In Service "maybe" is not Y or N' },
      { line: 7, message: 'NPA-NXX 201-234 appears again (first on line 2)' },
      { line: 8, message: 'NPA-NXX 201-239: 2 fields where the header has 12 (a truncated row?)' },
    ]);
    expect((error as ImportError).message).toMatch(/^CO code file: 6 problems\n {2}line 3: /);
  });

  it('skips bad rows in partial mode; an exchange listed on a bad row answers unknown, not unassigned', async () => {
    const { report, table } = await importText(BAD, 'partial');
    expect(report).toMatchObject({ rowsRead: 8, rowsUsed: 2, problemCount: 6 });
    expect(report.problems.map((p) => p.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(table.lineTypeCode(2012341234)).toBe(C.MOBILE); // the first row, not the duplicate
    expect(table.lineTypeCode(2012351234)).toBe(C.UNKNOWN_GEOGRAPHIC);
    expect(table.lineTypeCode(2012361234)).toBe(C.UNKNOWN_GEOGRAPHIC);
    expect(table.lineTypeCode(2012391234)).toBe(C.UNKNOWN_GEOGRAPHIC);
    expect(table.lineTypeCode(2012401234)).toBe(C.LANDLINE);
    expect(table.lineTypeCode(2012411234)).toBe(C.EXCHANGE_NOT_IN_SERVICE);
  });

  it('refuses a file that is not a CO code file, in either mode', async () => {
    const ocnFile = 'ocn,line_type\n9001,mobile\n';
    const builder = new ExchangeTableBuilder();
    await expect(
      importCoCodeFile(streamOf(ocnFile), builder, {
        ocnLineTypes: OCNS,
        mode: 'partial',
        source: 'allutlzd.txt',
      }),
    ).rejects.toThrow(
      /^allutlzd.txt: 1 problem\n {2}line 3: no header line names the columns NPA-NXX, OCN: expected NANPA's/,
    );
    await expect(importText('State\tNPA-NXX\tCompany\n')).rejects.toThrow(
      /line 1: the header lacks OCN: expected/,
    );
    await expect(importText('')).rejects.toThrow(/the file is empty/);
  });

  it('skips a title or file-date line before the header, and takes its date', async () => {
    const text = `CO Code Assignments, All States\nFile Date\t12/01/2025\n${CO_CODE_FILE.replace(/\tFile Updated [^\r]*/, '')}`;
    const { report, table } = await importText(text);
    expect(report).toMatchObject({ version: '2025-12-01', rowsRead: 6, rowsUsed: 6 });
    expect(table.lineTypeCode(2012341234)).toBe(C.MOBILE);
  });

  it('reads a file from a path, named by its file name', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'scrub-co-'));
    try {
      const path = join(dir, 'CoCodeAssignment_Utilized_AllStates_Public.txt');
      await writeFile(path, Buffer.from(CO_CODE_FILE, 'latin1'));
      const report = await importCoCodeFile(path, new ExchangeTableBuilder(), { ocnLineTypes: OCNS });
      expect(report).toMatchObject({ source: 'CoCodeAssignment_Utilized_AllStates_Public.txt', rowsUsed: 6 });
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('joins through an OCN list read from its CSV', async () => {
    const { lineTypes } = await readOcnLineTypes(
      streamOf('ocn,line_type\n9001,WIRELESS\n9002,ILEC\n9003,IPES\n'),
    );
    const builder = new ExchangeTableBuilder();
    await importCoCodeFile(streamOf(CO_CODE_FILE, 'latin1'), builder, { ocnLineTypes: lineTypes });
    const table = builder.build('joined');
    expect([2012341234, 2012351234, 2012361234].map((n) => table.lineTypeCode(n))).toEqual([
      C.MOBILE,
      C.LANDLINE,
      C.VOIP,
    ]);
  });
});
