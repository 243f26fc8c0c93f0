import { isNanpCountry, type NanpCountry } from './countries.ts';
import { FIRST_NPA, LAST_NPA, type NpaReport, type NpaReportRow } from './npa-report.ts';
import { timeZonesOf } from './time-zones.ts';

/**
 * What an area code is for, as NANPA's NPA report says. Whether numbers in it can be dialled
 * today is a separate flag (`inService`): 822 is toll free but not live, and new overlays are
 * geographic months before their first number works.
 */
export type AreaCodeStatus =
  | 'geographic'
  /** 800, 833, 844, 855, 866, 877, 888 live; 822 assigned, not live. */
  | 'toll_free'
  /** 900. */
  | 'premium'
  /** 5XX non-geographic (personal communications, machine-to-machine). */
  | 'personal'
  /** Other non-geographic services: Canadian 600/622/633, interexchange 700, US government 710. */
  | 'non_geographic'
  /** 211, 311, ... 911: three-digit service codes, never area codes. */
  | 'n11'
  /** 555. */
  | 'directory'
  /** N9X: kept for expanding the NANP beyond ten digits. */
  | 'expansion'
  /** Reserved by the industry (37X, 96X) or set aside for 5XX, toll free or Canada. */
  | 'reserved'
  /** Not assignable for other reasons: 950 carrier access, 988 crisis line. */
  | 'not_assignable'
  /** Available, not yet assigned. */
  | 'unassigned'
  /** Not an area code at all: outside 200-999. */
  | 'invalid';

export interface AreaCodeInfo {
  npa: number;
  status: AreaCodeStatus;
  /** ISO 3166-1 alpha-2 of the country a geographic code serves; US territories are US. */
  country: NanpCountry | null;
  /** As the report writes it: state or territory for the US (NJ, PR), province or country name otherwise. */
  region: string | null;
  inService: boolean;
  /**
   * IANA time zones of a geographic code (`timeZonesOf`: the report's TIME_ZONE column and the
   * place), several for a code spanning zones; [] for other codes and when the report gives none.
   */
  timeZones: readonly string[];
}

/**
 * The area-code table in the compact form that is generated and committed: one character per
 * code and a place index per code, not an object per code.
 */
export interface NpaTable {
  /** The report's file date, ISO: the dataset version. */
  fileDate: string;
  /** sha256 of the report the table was generated from. */
  sha256: string;
  /** One letter per code 200-999 (STATUS_LETTERS); upper case when in service. */
  status: string;
  /** "country|region" places; index 0 is "no place". */
  places: readonly string[];
  /** Two base-36 digits per code 200-999: index into `places`. */
  place: string;
  /** Space-separated IANA zone sets; index 0 is "no zone". */
  zoneSets: readonly string[];
  /** Two base-36 digits per code 200-999: index into `zoneSets`. */
  zones: string;
}

const STATUS_LETTERS = {
  geographic: 'g',
  toll_free: 't',
  premium: 'p',
  personal: 'c',
  non_geographic: 'n',
  n11: 's',
  directory: 'd',
  expansion: 'x',
  reserved: 'r',
  not_assignable: 'a',
  unassigned: 'u',
} as const satisfies Record<Exclude<AreaCodeStatus, 'invalid'>, string>;

const STATUS_BY_LETTER = new Map<string, AreaCodeStatus>(
  Object.entries(STATUS_LETTERS).map(([status, letter]) => [letter, status as AreaCodeStatus]),
);

const PLACE_DIGITS = 2;
const PLACE_RADIX = 36;

function classify(row: NpaReportRow): Exclude<AreaCodeStatus, 'invalid'> {
  const explanation = row.explanation.toLowerCase();
  if (explanation.startsWith('n11')) return 'n11';
  if (explanation.includes('directory assistance')) return 'directory';
  if (row.assigned) {
    if (row.use === 'G') return 'geographic';
    const service = row.service.toLowerCase();
    if (service.includes('toll')) return 'toll_free';
    if (service.includes('premium')) return 'premium';
    if (row.npa >= 500 && row.npa <= 599) return 'personal';
    return 'non_geographic';
  }
  if (explanation.includes('expansion')) return 'expansion';
  if (row.reserved) return 'reserved';
  if (!row.assignable) return 'not_assignable';
  return 'unassigned';
}

/** Classifies every code of a validated report into the compact table. */
export function buildNpaTable(report: NpaReport): NpaTable {
  const placeOf = (row: NpaReportRow) =>
    row.assigned && row.use === 'G' && row.country ? `${row.country}|${row.location}` : '';
  const places = ['', ...new Set(report.rows.map(placeOf).filter((place) => place !== ''))].sort();
  const zoneSetOf = (row: NpaReportRow) =>
    row.assigned && row.use === 'G' ? timeZonesOf(row.timeZone, row.country, row.location).join(' ') : '';
  const zoneSets = ['', ...new Set(report.rows.map(zoneSetOf).filter((zones) => zones !== ''))].sort();
  for (const [name, list] of [
    ['places', places],
    ['zone sets', zoneSets],
  ] as const) {
    if (list.length > PLACE_RADIX ** PLACE_DIGITS) {
      throw new Error(`${list.length} ${name} do not fit the NPA table's ${PLACE_DIGITS}-digit index`);
    }
  }
  const indexOf = (list: readonly string[], value: string) =>
    list.indexOf(value).toString(PLACE_RADIX).padStart(PLACE_DIGITS, '0');

  let status = '';
  let place = '';
  let zones = '';
  for (const [index, row] of report.rows.entries()) {
    if (row.npa !== FIRST_NPA + index) {
      throw new Error(`NPA report rows must be codes 200-999 in order; found ${row.npa} at ${index}`);
    }
    const letter = STATUS_LETTERS[classify(row)];
    status += row.inService ? letter.toUpperCase() : letter;
    place += indexOf(places, placeOf(row));
    zones += indexOf(zoneSets, zoneSetOf(row));
  }
  return { fileDate: report.fileDate, sha256: report.sha256, status, places, place, zoneSets, zones };
}

/** Reads one code from the table. Codes outside 200-999 are `invalid`. */
export function lookUpNpa(table: NpaTable, npa: number): AreaCodeInfo {
  const index = npa - FIRST_NPA;
  const letter = npa >= FIRST_NPA && npa <= LAST_NPA ? table.status[index] : undefined;
  const status = letter === undefined ? undefined : STATUS_BY_LETTER.get(letter.toLowerCase());
  if (letter === undefined || status === undefined) {
    return { npa, status: 'invalid', country: null, region: null, inService: false, timeZones: [] };
  }
  const indexAt = (digits: string) =>
    Number.parseInt(digits.slice(index * PLACE_DIGITS, (index + 1) * PLACE_DIGITS), PLACE_RADIX);
  const [country = '', region = ''] = (table.places[indexAt(table.place)] ?? '').split('|');
  const zones = table.zoneSets[indexAt(table.zones)] ?? '';
  return {
    npa,
    status,
    country: isNanpCountry(country) ? country : null,
    region: region === '' ? null : region,
    inService: letter !== letter.toLowerCase(),
    timeZones: zones === '' ? [] : zones.split(' '),
  };
}

function chunk(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

/**
 * The TypeScript module committed as src/generated/npa-table.ts. One line per hundred codes, so a
 * new NANPA report shows up in review as a change to the lines of the hundreds it touched.
 */
export function renderNpaTableModule(table: NpaTable): string {
  const hundreds = (text: string, perCode: number) =>
    chunk(text, 100 * perCode)
      .map((line, i) => `  '${line}', // ${FIRST_NPA + i * 100}-${FIRST_NPA + i * 100 + 99}`)
      .join('\n');
  const list = (values: readonly string[]) =>
    values.map((value) => `  '${value.replaceAll("'", "\\'")}',`).join('\n');
  const legend = Object.entries(STATUS_LETTERS)
    .map(([status, letter]) => `${letter} ${status}`)
    .join(', ');
  return `// Generated by packages/engine/scripts/generate-npa-table.ts from NANPA's NPA report
// (https://www.nanpa.com, public data). Do not edit: run \`pnpm --filter @scrub/engine generate\`.
import type { NpaTable } from '../nanpa/npa-table.ts';

// Status letters, upper case when in service: ${legend}.
const status = [
${hundreds(table.status, 1)}
].join('');

// Two base-36 digits per code: index into places.
const place = [
${hundreds(table.place, PLACE_DIGITS)}
].join('');

const places = [
${list(table.places)}
];

// Two base-36 digits per code: index into zoneSets (IANA zones, space-separated).
const zones = [
${hundreds(table.zones, PLACE_DIGITS)}
].join('');

const zoneSets = [
${list(table.zoneSets)}
];

export const npaTable: NpaTable = {
  fileDate: '${table.fileDate}',
  sha256: '${table.sha256}',
  status,
  places,
  place,
  zoneSets,
  zones,
};
`;
}
