import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../import-error.ts';
import { parseReportDate, readNpaReport } from './npa-report.ts';
import { geographic, lineOf, SAMPLE_ROWS, syntheticNpaReport } from './npa-report-fixture.ts';
import { buildNpaTable } from './npa-table.ts';
import { sharedNpaReportPath } from './shared-report-path.ts';

const SHARED_REPORT = sharedNpaReportPath();

function streamOf(text: string, chunkSize = 1000): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

async function importProblems(text: string): Promise<{ line: number; message: string }[]> {
  const error = await readNpaReport(streamOf(text)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportError);
  return [...(error as ImportError).problems];
}

describe('readNpaReport', () => {
  it('reads every code of a report with its file date, and hashes the bytes it read', async () => {
    const text = syntheticNpaReport();
    const report = await readNpaReport(streamOf(text));

    expect(report.fileDate).toBe('2025-11-26');
    expect(report.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(report.rows.map((row) => row.npa)).toEqual(Array.from({ length: 800 }, (_, i) => 200 + i));
    expect(report.rows[1]).toEqual({
      line: 4,
      npa: 201,
      assignable: true,
      explanation: '',
      reserved: false,
      assigned: true,
      assignmentDate: '1947-01-01',
      use: 'G',
      location: 'NJ',
      country: 'US',
      inService: true,
      inServiceDate: '1947-01-01',
      service: '',
      timeZone: 'E',
    });
  });

  it('reads older copies (01-JAN-47 dates, quoted empty fields, a byte-order mark) to the same table', async () => {
    const current = await readNpaReport(streamOf(syntheticNpaReport()));
    const older = await readNpaReport(streamOf(`\uFEFF${syntheticNpaReport({ oldStyle: true })}`));

    expect(older.rows[1]?.assignmentDate).toBe('1947-01-01');
    expect({ ...buildNpaTable(older), sha256: '' }).toEqual({ ...buildNpaTable(current), sha256: '' });
  });

  it('reports a row cut short, and the codes a truncated file lacks', async () => {
    const text = syntheticNpaReport();
    const cut = text.indexOf('\r\n650,') + 10;

    expect(await importProblems(text.slice(0, cut))).toEqual([
      { line: lineOf(650), message: 'expected 32 fields, found 2 (truncated or malformed row)' },
      { line: lineOf(651), message: 'end of file: area codes 651-999 missing (is the file truncated?)' },
    ]);
  });

  it('reports a file cut at a line break by the codes it lacks', async () => {
    const text = syntheticNpaReport();
    const problems = await importProblems(text.slice(0, text.indexOf('\r\n999,') + 2));

    expect(problems).toEqual([
      { line: lineOf(999), message: 'end of file: area code 999 missing (is the file truncated?)' },
    ]);
  });

  it('reports a quoted field that never closes on the line where it opens', async () => {
    const text = syntheticNpaReport().replace('\r\n300,', '\r\n300,"General Purpose Code,');

    expect(await importProblems(text)).toEqual([
      { line: lineOf(300), message: 'a quoted field opens in this row and is never closed' },
    ]);
  });

  it('reports bad values with their line numbers, counting lines inside quoted fields', async () => {
    const text = syntheticNpaReport({
      rows: {
        ...SAMPLE_ROWS,
        205: {
          ...geographic('AL', 'US'),
          DIALING_PLAN_NOTES: 'Calls between 205 and 659\r\nmay be dialed as 10D.',
        },
        300: { ASSIGNED: 'Maybe' },
        301: { ...geographic('ATLANTIS', 'ATLANTIS') },
        302: { ...geographic('NY', 'US'), IN_SERVICE_DT: '31-Feb-2020' },
        303: { IN_SERVICE: 'Y' },
        304: { USE: 'X' },
        306: { ...geographic('', 'US') },
      },
    }).replace('\r\n305,', '\r\n201,');

    expect(await importProblems(text)).toEqual([
      { line: lineOf(300) + 1, message: '300: ASSIGNED "Maybe" is not Yes/No' },
      { line: lineOf(301) + 1, message: '301: COUNTRY "ATLANTIS" is not a NANP country the engine knows' },
      { line: lineOf(302) + 1, message: '302: IN_SERVICE_DT "31-Feb-2020" is not a date' },
      { line: lineOf(303) + 1, message: '303: in service but not assigned' },
      { line: lineOf(304) + 1, message: '304: USE "X" is not G, N or empty' },
      { line: lineOf(305) + 1, message: 'area code 201 appears again (first on line 4)' },
      { line: lineOf(306) + 1, message: '306: assigned geographic code without LOCATION and COUNTRY' },
      { line: lineOf(999) + 2, message: 'end of file: area code 305 missing (is the file truncated?)' },
    ]);
  });

  it('refuses a file without the File Date line', async () => {
    const text = syntheticNpaReport().split('\r\n').slice(1).join('\r\n');

    expect(await importProblems(text)).toEqual([
      { line: 1, message: expect.stringContaining('expected "File Date,MM/DD/YYYY" as the first line') },
    ]);
  });

  it('refuses a header without a column it needs', async () => {
    const text = syntheticNpaReport().replace(',IN_SERVICE,', ',IN_SERVICE_FLAG,');

    expect(await importProblems(text)).toEqual([{ line: 2, message: 'header lacks column IN_SERVICE' }]);
  });

  it('refuses an empty file', async () => {
    expect(await importProblems('')).toEqual([{ line: 1, message: 'the file is empty' }]);
  });

  it('names the file it was given in its error', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'npa-report-'));
    const path = join(directory, 'npa_report.csv');
    await writeFile(path, syntheticNpaReport().replace('\r\n250,', '\r\n250,,'));

    await expect(readNpaReport(path)).rejects.toThrow(
      `npa_report.csv: 1 problem\n  line ${lineOf(250)}: expected 32 fields, found 33 (truncated or malformed row)`,
    );
    await rm(directory, { recursive: true });
  });

  it('passes on the error of a file it cannot open', async () => {
    await expect(readNpaReport('/nonexistent/npa_report.csv')).rejects.toThrow(/ENOENT/);
  });
});

describe('parseReportDate', () => {
  it.each([
    ['11/26/2025', '2025-11-26'],
    ['01-Jan-1947', '1947-01-01'],
    ['01-JAN-47', '1947-01-01'],
    ['27-FEB-27', '2027-02-27'],
    ['29-Feb-2024', '2024-02-29'],
    ['29-Feb-2025', null],
    ['13/01/2025', null],
    ['01-Foo-2020', null],
    ['2025-11-26', null],
  ])('%s -> %s', (text, iso) => {
    expect(parseReportDate(text)).toBe(iso);
  });
});

describe('the shared NANPA report', () => {
  it('imports whole, with the file date and checksum its README states', async (context) => {
    if (!SHARED_REPORT) return context.skip('NANPA report absent (SCRUB_NPA_REPORT): nothing to import');
    const report = await readNpaReport(SHARED_REPORT);

    expect(report.fileDate).toBe('2025-11-26');
    expect(report.sha256).toBe('20d7ee20c913391955437de0db6e03e879c1a9c574e8e62da22f1eeea36072c6');
    expect(report.rows).toHaveLength(800);
  });
});
