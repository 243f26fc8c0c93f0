import { describe, expect, it } from 'vitest';
import { areaCodeInfo, referenceDataVersions } from './area-codes.ts';
import type { AreaCodeInfo } from './nanpa/npa-table.ts';

const ALL: AreaCodeInfo[] = Array.from({ length: 800 }, (_, i) => areaCodeInfo(200 + i));

function codes(where: (info: AreaCodeInfo) => boolean): number[] {
  return ALL.filter(where).map((info) => info.npa);
}

describe('areaCodeInfo', () => {
  it('knows 201 as a New Jersey area code in service', () => {
    expect(areaCodeInfo(201)).toEqual({
      npa: 201,
      status: 'geographic',
      country: 'US',
      region: 'NJ',
      inService: true,
      timeZones: ['America/New_York'],
    });
    expect(areaCodeInfo('201')).toEqual(areaCodeInfo(201));
  });

  it('takes NANPA at its word for 861, a live Illinois code libphonenumber rejects', () => {
    expect(areaCodeInfo(861)).toEqual({
      npa: 861,
      status: 'geographic',
      country: 'US',
      region: 'IL',
      inService: true,
      timeZones: ['America/Chicago'],
    });
  });

  it('tells toll free, premium and personal codes apart', () => {
    expect(areaCodeInfo(800)).toEqual({
      npa: 800,
      status: 'toll_free',
      country: null,
      region: null,
      inService: true,
      timeZones: [],
    });
    expect(areaCodeInfo(900)).toMatchObject({ status: 'premium', inService: true });
    expect(areaCodeInfo(500)).toMatchObject({ status: 'personal', inService: true });
  });

  it('says 822 is not in service although assigned to toll free', () => {
    expect(areaCodeInfo(822)).toMatchObject({ status: 'toll_free', inService: false });
  });

  it('never treats service codes, 555 or reserved codes as area codes in service', () => {
    expect(areaCodeInfo(911)).toMatchObject({ status: 'n11', inService: false });
    expect(areaCodeInfo('411')).toMatchObject({ status: 'n11', inService: false });
    expect(areaCodeInfo(555)).toMatchObject({ status: 'directory', inService: false });
    expect(areaCodeInfo(370)).toMatchObject({ status: 'reserved', inService: false });
    expect(areaCodeInfo(960)).toMatchObject({ status: 'reserved', inService: false });
  });

  it('knows overlays announced but not yet live', () => {
    expect(areaCodeInfo(465)).toEqual({
      npa: 465,
      status: 'geographic',
      country: 'US',
      region: 'NY',
      inService: false,
      timeZones: ['America/New_York'],
    });
  });

  it('answers invalid for codes the report lacks', () => {
    expect(areaCodeInfo(199)).toEqual({
      npa: 199,
      status: 'invalid',
      country: null,
      region: null,
      inService: false,
      timeZones: [],
    });
    expect(areaCodeInfo('012')).toMatchObject({ npa: 12, status: 'invalid', inService: false });
  });

  it('refuses what is not a three-digit code', () => {
    for (const bad of ['20', '2011', ' 201', 'abc', 20.5, -1, 1000, Number.NaN]) {
      expect(() => areaCodeInfo(bad), String(bad)).toThrow(RangeError);
    }
  });
});

// The facts the shared report's README states, checked against the committed table.
describe('the NANPA report facts', () => {
  it('has 451 geographic codes in service: US 375 with territories, Canada 55, Caribbean 21', () => {
    const live = ALL.filter((info) => info.status === 'geographic' && info.inService);

    expect(live).toHaveLength(451);
    expect(live.filter((info) => info.country === 'US')).toHaveLength(375);
    expect(live.filter((info) => info.country === 'CA')).toHaveLength(55);
    expect(live.filter((info) => info.country !== 'US' && info.country !== 'CA')).toHaveLength(21);
    expect(live.every((info) => info.region !== null)).toBe(true);
    expect(areaCodeInfo(787)).toMatchObject({ country: 'US', region: 'PR' });
    expect(areaCodeInfo(876)).toMatchObject({ country: 'JM', region: 'JAMAICA' });
  });

  it('has toll free in service on 800, 833, 844, 855, 866, 877 and 888 only', () => {
    expect(codes((info) => info.status === 'toll_free' && info.inService)).toEqual([
      800, 833, 844, 855, 866, 877, 888,
    ]);
    expect(codes((info) => info.status === 'toll_free' && !info.inService)).toEqual([822]);
    for (const npa of [880, 881, 882, 883, 884, 885, 886, 887, 889]) {
      expect(areaCodeInfo(npa), String(npa)).toMatchObject({ status: 'reserved', inService: false });
    }
  });

  it('has 900 as the only premium code', () => {
    expect(codes((info) => info.status === 'premium')).toEqual([900]);
  });

  it('has the personal 5XX codes in service', () => {
    expect(codes((info) => info.status === 'personal' && info.inService)).toEqual([
      500, 521, 522, 523, 524, 525, 526, 527, 528, 529, 532, 533, 538, 544, 566, 577, 588,
    ]);
  });

  it('has N11 as service codes and N9X kept for expansion, none assignable', () => {
    expect(codes((info) => info.status === 'n11')).toEqual([211, 311, 411, 511, 611, 711, 811, 911]);
    const n9x = codes((info) => Math.floor(info.npa / 10) % 10 === 9);
    expect(n9x).toHaveLength(80);
    expect(codes((info) => info.status === 'expansion')).toEqual(n9x);
  });

  it('has 37X and 96X reserved and 555 for directory assistance', () => {
    const reservedByInc = [
      370, 371, 372, 373, 374, 375, 376, 377, 378, 379, 960, 961, 962, 963, 964, 965, 966, 967, 968, 969,
    ];
    for (const npa of reservedByInc)
      expect(areaCodeInfo(npa), String(npa)).toMatchObject({ status: 'reserved' });
    expect(codes((info) => info.status === 'directory')).toEqual([555]);
  });

  it('has no code in service that is not geographic, toll free, premium, personal or another service', () => {
    const statuses = new Set(ALL.filter((info) => info.inService).map((info) => info.status));
    expect([...statuses].sort()).toEqual([
      'geographic',
      'non_geographic',
      'personal',
      'premium',
      'toll_free',
    ]);
  });
});

describe('referenceDataVersions', () => {
  it('names the NANPA report by its file date', () => {
    expect(referenceDataVersions()).toEqual({ nanpa_npa: '2025-11-26' });
  });
});
