import type { NanpCountry } from './countries.ts';

/**
 * The IANA time zones of an area code, from the NPA report's TIME_ZONE column and the place it
 * serves. The report writes one letter per zone (E, C, M, P, A Atlantic, N Newfoundland), several
 * for a code spanning zones (EC, CMP), and free text for a few (`(UTC-10)` for Hawaii, `AK`,
 * `PT/MT only for W Wendover`). Letters say nothing about daylight saving time, so places that
 * keep their own rules are named by place first:
 *
 * - every NANP country but the US and Canada has one zone (the Dominican Republic's 829 and 849
 *   are `E` in the report, yet the country keeps Atlantic time all year);
 * - Arizona (no DST), Hawaii, Alaska, and the US territories;
 * - Saskatchewan (Central time, no DST).
 *
 * Limits: an area code's zone is the best evidence available, not where the subscriber is (a
 * mobile number keeps its area code when its owner moves). The Navajo Nation in Arizona keeps
 * DST; Alaska's Aleutian islands, the Mountain-time corner of British Columbia and the Eastern
 * part of Nunavut are not in the letters the report gives their codes.
 */
const COUNTRY_ZONES: Partial<Record<NanpCountry, string>> = {
  AG: 'America/Antigua',
  AI: 'America/Anguilla',
  BB: 'America/Barbados',
  BM: 'Atlantic/Bermuda',
  BS: 'America/Nassau',
  DM: 'America/Dominica',
  DO: 'America/Santo_Domingo',
  GD: 'America/Grenada',
  JM: 'America/Jamaica',
  KN: 'America/St_Kitts',
  KY: 'America/Cayman',
  LC: 'America/St_Lucia',
  MS: 'America/Montserrat',
  SX: 'America/Lower_Princes',
  TC: 'America/Grand_Turk',
  TT: 'America/Port_of_Spain',
  VC: 'America/St_Vincent',
  VG: 'America/Tortola',
};

/** Regions (as the report names them) with zone rules of their own. */
const REGION_ZONES: Record<string, string> = {
  'US|AZ': 'America/Phoenix',
  'US|HI': 'Pacific/Honolulu',
  'US|AK': 'America/Anchorage',
  'US|PR': 'America/Puerto_Rico',
  'US|VI': 'America/St_Thomas',
  'US|GU': 'Pacific/Guam',
  'US|CNMI': 'Pacific/Saipan',
  'US|AS': 'Pacific/Pago_Pago',
  'CA|SASKATCHEWAN': 'America/Regina',
};

const US_LETTERS: Record<string, string> = {
  E: 'America/New_York',
  C: 'America/Chicago',
  M: 'America/Denver',
  P: 'America/Los_Angeles',
};

const CANADA_LETTERS: Record<string, string> = {
  N: 'America/St_Johns',
  A: 'America/Halifax',
  E: 'America/Toronto',
  C: 'America/Winnipeg',
  M: 'America/Edmonton',
  P: 'America/Vancouver',
};

/** The zone letters of a TIME_ZONE value: `EC`, or `PT/MT ...` written out; null when unreadable. */
function zoneLetters(text: string): string[] | null {
  const value = text.trim().toUpperCase();
  if (/^[NAECMP]+$/.test(value)) return [...value];
  const named = [...value.matchAll(/\b([NAECMP])T\b/g)].map((match) => match[1]!);
  return named.length > 0 ? named : null;
}

/**
 * The IANA zones of a geographic area code, in the report's order; [] when the report gives none.
 * Throws for a TIME_ZONE value it cannot read, so that a new form in a new report is seen when the
 * table is generated rather than answered as "no time zone".
 */
export function timeZonesOf(timeZone: string, country: NanpCountry | null, region: string): string[] {
  if (country === null) return [];
  const single = COUNTRY_ZONES[country] ?? REGION_ZONES[`${country}|${region}`];
  if (single !== undefined) return [single];
  if (timeZone.trim() === '') return [];
  const letters = zoneLetters(timeZone);
  const zones = country === 'CA' ? CANADA_LETTERS : US_LETTERS;
  const named = letters?.map((letter) => zones[letter]);
  if (named === undefined || named.some((zone) => zone === undefined)) {
    throw new Error(`TIME_ZONE "${timeZone}" of ${country} ${region} is not a zone the engine knows`);
  }
  return [...new Set(named as string[])];
}
