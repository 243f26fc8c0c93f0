import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { npaTable } from '../generated/npa-table.ts';
import { readNpaReport } from './npa-report.ts';
import { geographic, SAMPLE_ROWS, syntheticNpaReport } from './npa-report-fixture.ts';
import { buildNpaTable, lookUpNpa, renderNpaTableModule } from './npa-table.ts';
import { sharedNpaReportPath } from './shared-report-path.ts';

const SHARED_REPORT = sharedNpaReportPath();
const GENERATED = fileURLToPath(new URL('../generated/npa-table.ts', import.meta.url));

describe('the committed NPA table', () => {
  it('is what the importer makes of the shared NANPA report', async (context) => {
    if (!SHARED_REPORT)
      return context.skip('NANPA report absent (SCRUB_NPA_REPORT): cannot regenerate the table to compare');
    const table = buildNpaTable(await readNpaReport(SHARED_REPORT));

    expect(npaTable).toEqual(table);
    // The file itself too, so a hand edit or a stale generator shows up here.
    expect(await readFile(GENERATED, 'utf8'), 'run `pnpm --filter @scrub/engine generate`').toBe(
      renderNpaTableModule(table),
    );
  });
});

describe('buildNpaTable', () => {
  it('classifies each kind of row of the report', async () => {
    const table = buildNpaTable(await readNpaReport(Readable.from([syntheticNpaReport()])));
    const info = (npa: number) => lookUpNpa(table, npa);

    expect(info(201)).toEqual({
      npa: 201,
      status: 'geographic',
      country: 'US',
      region: 'NJ',
      inService: true,
      timeZones: ['America/New_York'],
    });
    expect(info(204)).toEqual({
      npa: 204,
      status: 'geographic',
      country: 'CA',
      region: 'MANITOBA',
      inService: true,
      timeZones: ['America/Toronto'], // the fixture's rows are all E
    });
    expect(info(787)).toMatchObject({
      status: 'geographic',
      country: 'US',
      region: 'PR',
      timeZones: ['America/Puerto_Rico'],
    });
    expect(info(876)).toMatchObject({
      status: 'geographic',
      country: 'JM',
      region: 'JAMAICA',
      timeZones: ['America/Jamaica'],
    });
    expect(info(800)).toEqual({
      npa: 800,
      status: 'toll_free',
      country: null,
      region: null,
      inService: true,
      timeZones: [],
    });
    expect(info(822)).toMatchObject({ status: 'toll_free', inService: false });
    expect(info(880)).toMatchObject({ status: 'reserved', inService: false });
    expect(info(900)).toMatchObject({ status: 'premium', inService: true });
    expect(info(500)).toMatchObject({ status: 'personal', inService: true });
    expect(info(211)).toMatchObject({ status: 'n11', inService: false });
    expect(info(555)).toMatchObject({ status: 'directory', inService: false });
    expect(info(370)).toMatchObject({ status: 'reserved', inService: false });
    expect(info(950)).toMatchObject({ status: 'not_assignable', inService: false });
    expect(info(990)).toMatchObject({ status: 'expansion', inService: false });
    expect(info(202)).toEqual({
      npa: 202,
      status: 'unassigned',
      country: null,
      region: null,
      inService: false,
      timeZones: [],
    });
  });

  it('answers invalid for codes outside the table', async () => {
    const table = buildNpaTable(await readNpaReport(Readable.from([syntheticNpaReport()])));

    for (const npa of [0, 123, 199, 1000]) {
      expect(lookUpNpa(table, npa)).toEqual({
        npa,
        status: 'invalid',
        country: null,
        region: null,
        inService: false,
        timeZones: [],
      });
    }
  });
});

describe('time zones', () => {
  it('names each zone of a code spanning zones, and places with rules of their own by place', async () => {
    const rows = {
      ...SAMPLE_ROWS,
      219: { ...geographic('IN', 'US'), TIME_ZONE: 'EC' },
      602: { ...geographic('AZ', 'US'), TIME_ZONE: 'M' },
      775: { ...geographic('NV', 'US'), TIME_ZONE: 'PT/MT only for W Wendover' },
      808: { ...geographic('HI', 'US'), TIME_ZONE: '(UTC-10)' },
      306: { ...geographic('SASKATCHEWAN', 'CANADA'), TIME_ZONE: 'C' },
    };
    const table = buildNpaTable(await readNpaReport(Readable.from([syntheticNpaReport({ rows })])));
    const zones = (npa: number) => lookUpNpa(table, npa).timeZones;

    expect(zones(219)).toEqual(['America/New_York', 'America/Chicago']);
    expect(zones(602)).toEqual(['America/Phoenix']);
    expect(zones(775)).toEqual(['America/Los_Angeles', 'America/Denver']);
    expect(zones(808)).toEqual(['Pacific/Honolulu']);
    expect(zones(306)).toEqual(['America/Regina']);
  });

  it('refuses a TIME_ZONE it cannot read rather than answer "no time zone"', async () => {
    const rows = { ...SAMPLE_ROWS, 201: { ...geographic('NJ', 'US'), TIME_ZONE: 'Eastern-ish' } };
    const report = await readNpaReport(Readable.from([syntheticNpaReport({ rows })]));

    expect(() => buildNpaTable(report)).toThrow(
      'TIME_ZONE "Eastern-ish" of US NJ is not a zone the engine knows',
    );
  });

  it("keeps the real report's special cases in the committed table", () => {
    const zones = (npa: number) => lookUpNpa(npaTable, npa).timeZones;
    expect(zones(480)).toEqual(['America/Phoenix']);
    expect(zones(907)).toEqual(['America/Anchorage']);
    expect(zones(671)).toEqual(['Pacific/Guam']);
    expect(zones(684)).toEqual(['Pacific/Pago_Pago']);
    expect(zones(829)).toEqual(['America/Santo_Domingo']);
    expect(zones(605)).toEqual(['America/Chicago', 'America/Denver']);
    expect(zones(800)).toEqual([]);
  });
});
