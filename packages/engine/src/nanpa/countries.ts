/**
 * NANP member countries as NANPA's NPA report names them in its COUNTRY column, to ISO 3166-1
 * alpha-2. US territories (PR, VI, GU, AS, CNMI) are COUNTRY=US in the report, and stay US here
 * with the territory as the region.
 */
const COUNTRY_CODES = {
  US: 'US',
  CANADA: 'CA',
  ANGUILLA: 'AI',
  'ANTIGUA/BARBUDA': 'AG',
  BAHAMAS: 'BS',
  BARBADOS: 'BB',
  BERMUDA: 'BM',
  'BRITISH VIRGIN ISLANDS': 'VG',
  'CAYMAN ISLANDS': 'KY',
  DOMINICA: 'DM',
  'DOMINICAN REPUBLIC': 'DO',
  GRENADA: 'GD',
  JAMAICA: 'JM',
  MONTSERRAT: 'MS',
  'SINT MAARTEN': 'SX',
  'ST. KITTS & NEVIS': 'KN',
  'ST.LUCIA': 'LC',
  'ST. LUCIA': 'LC',
  'ST. VINCENT & GRENADINES': 'VC',
  'TRINIDAD & TOBAGO': 'TT',
  'TURKS & CAICOS ISLANDS': 'TC',
} as const;

export type NanpCountry = (typeof COUNTRY_CODES)[keyof typeof COUNTRY_CODES];

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(COUNTRY_CODES));

/** The ISO code for a COUNTRY value of the report, or undefined for a name we do not know. */
export function countryCodeOf(reportName: string): NanpCountry | undefined {
  const key = reportName.trim().replace(/\s+/g, ' ').toUpperCase();
  return Object.hasOwn(COUNTRY_CODES, key) ? COUNTRY_CODES[key as keyof typeof COUNTRY_CODES] : undefined;
}

export function isNanpCountry(code: string): code is NanpCountry {
  return KNOWN_CODES.has(code);
}
