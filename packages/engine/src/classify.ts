import type { TableLevel } from './exchange/table-level.ts';
import { npaTable } from './generated/npa-table.ts';
import type { NanpCountry } from './nanpa/countries.ts';
import { type AreaCodeInfo, lookUpNpa } from './nanpa/npa-table.ts';

/**
 * The answer for one number as a small integer, so that a bulk loop allocates nothing:
 * `classifyCode` returns one, `lineTypeOf`, `invalidReasonOf` and `classificationOf` read it.
 * Below FIRST_INVALID_CODE the number is valid; from it on, each code is one invalid reason.
 * The values are stable within a major version.
 */
export const ClassCode = {
  /** Valid geographic US number; its line type comes from exchange data, which had no answer. */
  UNKNOWN_GEOGRAPHIC: 0,
  MOBILE: 1,
  LANDLINE: 2,
  VOIP: 3,
  TOLL_FREE: 4,
  NOT_TEN_DIGITS: 8,
  AREA_CODE_INVALID: 9,
  AREA_CODE_N11: 10,
  AREA_CODE_DIRECTORY: 11,
  AREA_CODE_EXPANSION: 12,
  AREA_CODE_RESERVED: 13,
  AREA_CODE_NOT_ASSIGNABLE: 14,
  AREA_CODE_UNASSIGNED: 15,
  AREA_CODE_NOT_IN_SERVICE: 16,
  AREA_CODE_OUTSIDE_US: 17,
  PREMIUM_RATE: 18,
  PERSONAL_SERVICE: 19,
  NON_GEOGRAPHIC_SERVICE: 20,
  EXCHANGE_INVALID: 21,
  EXCHANGE_N11: 22,
  EXCHANGE_CARRIER_ACCESS: 23,
  EXCHANGE_555: 24,
  FICTIONAL_NUMBER: 25,
  EXCHANGE_NOT_IN_SERVICE: 26,
} as const;

export type ClassCode = (typeof ClassCode)[keyof typeof ClassCode];

export const FIRST_INVALID_CODE = ClassCode.NOT_TEN_DIGITS;

/** What the product answers as a line type. `unknown_geographic`: valid, no exchange data answered. */
export type LineType = 'mobile' | 'landline' | 'voip' | 'toll_free' | 'invalid' | 'unknown_geographic';

/** Why a 10-digit number is invalid. Stable: clients and result files may branch on them. */
export const NUMBER_INVALID_REASONS = [
  'not_ten_digits',
  'area_code_invalid',
  'area_code_n11',
  'area_code_directory',
  'area_code_expansion',
  'area_code_reserved',
  'area_code_not_assignable',
  'area_code_unassigned',
  'area_code_not_in_service',
  'area_code_outside_us',
  'premium_rate',
  'personal_service',
  'non_geographic_service',
  'exchange_invalid',
  'exchange_n11',
  'exchange_carrier_access',
  'exchange_555',
  'fictional_number',
  'exchange_not_in_service',
] as const;

export type NumberInvalidReason = (typeof NUMBER_INVALID_REASONS)[number];

/** What exchange data may answer for a valid geographic number. */
export type ExchangeAnswer =
  | typeof ClassCode.UNKNOWN_GEOGRAPHIC
  | typeof ClassCode.MOBILE
  | typeof ClassCode.LANDLINE
  | typeof ClassCode.VOIP
  | typeof ClassCode.EXCHANGE_NOT_IN_SERVICE;

/**
 * Line types by exchange (NPA-NXX), thousands-block and ported number: imported by the operator,
 * or generated as labelled sample data. `classifyCode` asks it only about numbers that passed
 * every NANP rule, so an implementation is a lookup and nothing else.
 */
export interface ExchangeData {
  /** Names the dataset, for answers and /health: which data answered. */
  readonly version: string;
  /** `sample` for generated data, so answers can say that they are not real; absent means imported. */
  readonly source?: 'imported' | 'sample';
  /**
   * Called on the hot path for each valid geographic number (the 10 digits as an integer): keep
   * it to typed-array lookups, with no allocation. UNKNOWN_GEOGRAPHIC when the data has no
   * answer; EXCHANGE_NOT_IN_SERVICE only where the data is the authority on what is assigned.
   */
  lineTypeCode(number: number): ExchangeAnswer;
  /**
   * Which of the data's levels gave `lineTypeCode(number)` (`TableLevel`: exchange, thousands block
   * or number override), for answers that say what they rest on. Off the hot path: asked only when
   * an answer names its source. Absent: the exchange.
   */
  lineTypeLevel?(number: number): TableLevel;
}

export interface Classification {
  lineType: LineType;
  invalidReason: NumberInvalidReason | null;
  /** A sentence for people, naming the area code or exchange; null when valid. */
  message: string | null;
}

const C = ClassCode;
const LARGEST_NUMBER = 9_999_999_999;

const LINE_TYPES: readonly LineType[] = ['unknown_geographic', 'mobile', 'landline', 'voip', 'toll_free'];

const COUNTRY_NAMES = {
  AG: 'Antigua and Barbuda',
  AI: 'Anguilla',
  BB: 'Barbados',
  BM: 'Bermuda',
  BS: 'the Bahamas',
  CA: 'Canada',
  DM: 'Dominica',
  DO: 'the Dominican Republic',
  GD: 'Grenada',
  JM: 'Jamaica',
  KN: 'St. Kitts and Nevis',
  KY: 'the Cayman Islands',
  LC: 'St. Lucia',
  MS: 'Montserrat',
  SX: 'Sint Maarten',
  TC: 'the Turks and Caicos Islands',
  TT: 'Trinidad and Tobago',
  VC: 'St. Vincent and the Grenadines',
  VG: 'the British Virgin Islands',
} as const satisfies Record<Exclude<NanpCountry, 'US'>, string>;

/** The verdict an area code alone gives: UNKNOWN_GEOGRAPHIC and TOLL_FREE go on to the exchange. */
function areaCodeVerdict(info: AreaCodeInfo): ClassCode {
  switch (info.status) {
    case 'invalid':
      return C.AREA_CODE_INVALID;
    case 'n11':
      return C.AREA_CODE_N11;
    case 'directory':
      return C.AREA_CODE_DIRECTORY;
    case 'expansion':
      return C.AREA_CODE_EXPANSION;
    case 'reserved':
      return C.AREA_CODE_RESERVED;
    case 'not_assignable':
      return C.AREA_CODE_NOT_ASSIGNABLE;
    case 'unassigned':
      return C.AREA_CODE_UNASSIGNED;
  }
  if (!info.inService) return C.AREA_CODE_NOT_IN_SERVICE;
  switch (info.status) {
    case 'geographic':
      return info.country === 'US' ? C.UNKNOWN_GEOGRAPHIC : C.AREA_CODE_OUTSIDE_US;
    case 'toll_free':
      return C.TOLL_FREE;
    case 'premium':
      return C.PREMIUM_RATE;
    case 'personal':
      return C.PERSONAL_SERVICE;
    case 'non_geographic':
      return C.NON_GEOGRAPHIC_SERVICE;
  }
}

function exchangeVerdict(nxx: number): ClassCode {
  if (nxx < 200) return C.EXCHANGE_INVALID;
  if (nxx % 100 === 11) return C.EXCHANGE_N11;
  if (nxx === 950) return C.EXCHANGE_CARRIER_ACCESS;
  // The line number decides between fictional and other 555 numbers.
  if (nxx === 555) return C.EXCHANGE_555;
  return C.UNKNOWN_GEOGRAPHIC;
}

// Built once from the committed NPA table: one byte per area code and per exchange, so the hot
// path is two array reads and some arithmetic.
const AREA_CODE_VERDICTS = Uint8Array.from({ length: 1000 }, (_, npa) =>
  areaCodeVerdict(lookUpNpa(npaTable, npa)),
);
const EXCHANGE_VERDICTS = Uint8Array.from({ length: 1000 }, (_, nxx) => exchangeVerdict(nxx));

/**
 * Classifies a 10-digit NANP number given as an integer (2015550123): the hot path of every
 * check. No strings, no allocation; exchange data, when given, answers for valid geographic
 * numbers. Anything that is not an integer from 0 to 9999999999 is NOT_TEN_DIGITS.
 */
export function classifyCode(number: number, exchangeData?: ExchangeData): ClassCode {
  if (!(number >= 0 && number <= LARGEST_NUMBER && Math.floor(number) === number)) return C.NOT_TEN_DIGITS;
  // Both quotients stay below 2^31, so `| 0` truncates them exactly.
  const areaCode = AREA_CODE_VERDICTS[(number / 10_000_000) | 0]! as ClassCode;
  if (areaCode === C.UNKNOWN_GEOGRAPHIC) {
    const exchange = (number / 10_000) | 0;
    const verdict = EXCHANGE_VERDICTS[exchange % 1000]! as ClassCode;
    if (verdict === C.UNKNOWN_GEOGRAPHIC) {
      return exchangeData === undefined ? C.UNKNOWN_GEOGRAPHIC : exchangeData.lineTypeCode(number);
    }
    if (verdict !== C.EXCHANGE_555) return verdict;
    const line = number - exchange * 10_000;
    return line >= 100 && line <= 199 ? C.FICTIONAL_NUMBER : C.EXCHANGE_555;
  }
  // Toll-free numbers are 8YY-NXX-XXXX too; N11 and 555 are ordinary exchanges there.
  if (areaCode === C.TOLL_FREE && ((number / 10_000) | 0) % 1000 < 200) return C.EXCHANGE_INVALID;
  return areaCode;
}

export function isInvalidCode(code: ClassCode): boolean {
  return code >= FIRST_INVALID_CODE;
}

export function lineTypeOf(code: ClassCode): LineType {
  return LINE_TYPES[code] ?? 'invalid';
}

export function invalidReasonOf(code: ClassCode): NumberInvalidReason | null {
  return code >= FIRST_INVALID_CODE ? (NUMBER_INVALID_REASONS[code - FIRST_INVALID_CODE] ?? null) : null;
}

const pad3 = (n: number) => String(n).padStart(3, '0');

/** The sentence for an invalid reason, naming the number's area code or exchange. */
export function numberInvalidMessage(reason: NumberInvalidReason, number: number): string {
  const npa = pad3(Math.floor(number / 10_000_000));
  const nxx = pad3(Math.floor(number / 10_000) % 1000);
  switch (reason) {
    case 'not_ten_digits':
      return `Not a 10-digit phone number: ${number}`;
    case 'area_code_invalid':
      return `Area code ${npa} does not exist: area codes start with a digit from 2 to 9`;
    case 'area_code_n11':
      return `Area code ${npa} does not exist: N11 codes are dialled for services (411, 911), never as area codes`;
    case 'area_code_directory':
      return 'Area code 555 does not exist: 555 is kept for directory assistance';
    case 'area_code_expansion':
      return `Area code ${npa} is not in service: N9X codes are kept for expanding the numbering plan`;
    case 'area_code_reserved':
      return `Area code ${npa} is reserved and not in service`;
    case 'area_code_not_assignable':
      return `Area code ${npa} is set aside for a special use and not in service`;
    case 'area_code_unassigned':
      return `Area code ${npa} is not assigned and not in service`;
    case 'area_code_not_in_service':
      return `Area code ${npa} is assigned but not in service yet`;
    case 'area_code_outside_us': {
      const { country } = lookUpNpa(npaTable, Number(npa));
      const where = country && country !== 'US' ? COUNTRY_NAMES[country] : 'another NANP country';
      return `Area code ${npa} is in ${where}, outside the US: Scrub checks US numbers only`;
    }
    case 'premium_rate':
      return `Area code ${npa} is for premium-rate (pay-per-call) services, not lines to call`;
    case 'personal_service':
      return `Area code ${npa} is for non-geographic personal and machine-to-machine services, not consumer lines`;
    case 'non_geographic_service':
      return `Area code ${npa} is for non-geographic carrier or government services, not consumer lines`;
    case 'exchange_invalid':
      return `Exchange ${nxx} does not exist: exchanges start with a digit from 2 to 9`;
    case 'exchange_n11':
      return `Exchange ${nxx} does not exist: N11 codes are dialled for services, never as exchanges`;
    case 'exchange_carrier_access':
      return 'Exchange 950 is kept in every area code for carrier access, not subscriber lines';
    case 'exchange_555':
      return 'Exchange 555 is kept for directory and information services, not subscriber lines';
    case 'fictional_number':
      return 'Numbers 555-0100 to 555-0199 are reserved for fiction and examples in every area code';
    case 'exchange_not_in_service':
      return `Exchange ${npa}-${nxx} is not in service`;
  }
}

/** The answer of a code as an object, for one-at-a-time callers. */
export function classificationOf(code: ClassCode, number: number): Classification {
  const invalidReason = invalidReasonOf(code);
  return {
    lineType: lineTypeOf(code),
    invalidReason,
    message: invalidReason === null ? null : numberInvalidMessage(invalidReason, number),
  };
}

/** `classifyCode` as an object with the reason and its sentence. */
export function classifyNumber(number: number, exchangeData?: ExchangeData): Classification {
  return classificationOf(classifyCode(number, exchangeData), number);
}
