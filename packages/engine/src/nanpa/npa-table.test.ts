import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { npaTable } from '../generated/npa-table.ts';
import { readNpaReport } from './npa-report.ts';
import { syntheticNpaReport } from './npa-report-fixture.ts';
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
    });
    expect(info(204)).toEqual({
      npa: 204,
      status: 'geographic',
      country: 'CA',
      region: 'MANITOBA',
      inService: true,
    });
    expect(info(787)).toMatchObject({ status: 'geographic', country: 'US', region: 'PR' });
    expect(info(876)).toMatchObject({ status: 'geographic', country: 'JM', region: 'JAMAICA' });
    expect(info(800)).toEqual({
      npa: 800,
      status: 'toll_free',
      country: null,
      region: null,
      inService: true,
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
      });
    }
  });
});
