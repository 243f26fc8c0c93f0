import { ClassCode } from '../classify.ts';

/** The line types an exchange, block, carrier or number can be given. */
export type LineTypeCode = typeof ClassCode.MOBILE | typeof ClassCode.LANDLINE | typeof ClassCode.VOIP;

/**
 * The words a line-type column may hold: the product's own (`mobile`, `landline`, `voip`) and the
 * carrier categories that commercial OCN lists and the LERG use. A carrier category is a proxy for
 * the line type of the numbers it holds, and a coarse one: CLECs are counted as landline, though
 * many resell VoIP; an operator who knows better lists such a carrier as `voip`.
 */
export const LINE_TYPE_WORDS: Readonly<Record<string, LineTypeCode>> = {
  MOBILE: ClassCode.MOBILE,
  WIRELESS: ClassCode.MOBILE,
  CELLULAR: ClassCode.MOBILE,
  CELL: ClassCode.MOBILE,
  // Personal Communications Service: the LERG's category for wireless carriers.
  PCS: ClassCode.MOBILE,
  // Commercial Mobile Radio Service, the FCC's term.
  CMRS: ClassCode.MOBILE,
  'W RESELLER': ClassCode.MOBILE,
  'WIRELESS RESELLER': ClassCode.MOBILE,
  LANDLINE: ClassCode.LANDLINE,
  'LAND LINE': ClassCode.LANDLINE,
  FIXED: ClassCode.LANDLINE,
  WIRELINE: ClassCode.LANDLINE,
  // Local exchange carriers: incumbent (and the regional Bell companies), competitive,
  // unbundled, competitive access providers, independent telephone companies.
  LEC: ClassCode.LANDLINE,
  ILEC: ClassCode.LANDLINE,
  RBOC: ClassCode.LANDLINE,
  CLEC: ClassCode.LANDLINE,
  ULEC: ClassCode.LANDLINE,
  CAP: ClassCode.LANDLINE,
  ICO: ClassCode.LANDLINE,
  'L RESELLER': ClassCode.LANDLINE,
  VOIP: ClassCode.VOIP,
  'VOICE OVER IP': ClassCode.VOIP,
  'INTERCONNECTED VOIP': ClassCode.VOIP,
  // Internet Protocol Enabled Services: the LERG's category for VoIP providers that hold numbers.
  IPES: ClassCode.VOIP,
};

/** Reads a line-type word, in any case, with spaces, `_` or `-` between words; null if unknown. */
export function lineTypeFromWord(text: string): LineTypeCode | null {
  const word = text
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, ' ');
  return Object.hasOwn(LINE_TYPE_WORDS, word) ? LINE_TYPE_WORDS[word]! : null;
}

export function describeLineTypeWord(text: string): string {
  return `line type "${text}" is not mobile, landline or voip, nor a carrier category the engine maps (wireless, pcs, ilec, clec, ipes...)`;
}
