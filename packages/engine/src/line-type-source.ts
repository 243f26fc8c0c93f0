import { ClassCode, type ExchangeData } from './classify.ts';
import { TableLevel } from './exchange/table-level.ts';

export { TableLevel };

/**
 * What a line type rests on. `sample`: generated sample data (not real). `exchange`: the line type
 * of the exchange's carrier (NPA-NXX), wrong for numbers ported away from it. `thousands_block`:
 * the carrier holding the number's thousands block (NPA-NXX-X), finer than the exchange.
 * `number_override`: the operator's list of single numbers (mostly ported ones). `carrier_lookup`:
 * a live lookup of the number (the service asks, the engine never does). `numbering_plan`: the area
 * code alone decides (toll-free 8YY codes), whatever carrier holds the number.
 */
export const LINE_TYPE_SOURCES = [
  'sample',
  'exchange',
  'thousands_block',
  'number_override',
  'carrier_lookup',
  'numbering_plan',
] as const;
export type LineTypeSource = (typeof LINE_TYPE_SOURCES)[number];

/** A source as a small integer (index into SOURCE_CODES' names), for the bulk loop; 0: none. */
export const SourceCode = {
  NONE: 0,
  SAMPLE: 1,
  EXCHANGE: 2,
  THOUSANDS_BLOCK: 3,
  NUMBER_OVERRIDE: 4,
  NUMBERING_PLAN: 5,
  /** A carrier lookup the service made before a bulk job's scrub (`ScrubCsvOptions.carrier`). */
  CARRIER_LOOKUP: 6,
} as const;
export type SourceCode = (typeof SourceCode)[keyof typeof SourceCode];

/** The name of each SourceCode; null for NONE. */
export const SOURCE_NAMES: readonly (LineTypeSource | null)[] = [
  null,
  'sample',
  'exchange',
  'thousands_block',
  'number_override',
  'numbering_plan',
  'carrier_lookup',
];

const LEVEL_SOURCES = [SourceCode.EXCHANGE, SourceCode.THOUSANDS_BLOCK, SourceCode.NUMBER_OVERRIDE] as const;

/**
 * What the answer `code` (from `classifyCode(number, exchangeData)`) rests on. Asked apart from
 * `classifyCode`, and only when an answer must say it, so the hot path is unchanged.
 *
 * - toll free: the numbering plan;
 * - a valid geographic number, or one the exchange data calls not in service: the exchange data's
 *   level that answered (`sample` for generated data, whatever its level); for `unknown_geographic`
 *   the level consulted, which had no line type; NONE without exchange data;
 * - any other invalid number (the numbering plan's rules, or an unreadable input): NONE, nothing
 *   gave it a line type.
 */
export function lineTypeSourceCode(code: number, number: number, exchangeData?: ExchangeData): SourceCode {
  if (code === ClassCode.TOLL_FREE) return SourceCode.NUMBERING_PLAN;
  if (code > ClassCode.VOIP && code !== ClassCode.EXCHANGE_NOT_IN_SERVICE) return SourceCode.NONE;
  if (exchangeData === undefined) return SourceCode.NONE;
  if (exchangeData.source === 'sample') return SourceCode.SAMPLE;
  return LEVEL_SOURCES[exchangeData.lineTypeLevel?.(number) ?? TableLevel.EXCHANGE];
}

/** `lineTypeSourceCode` by name; null when nothing gave the number a line type. */
export function lineTypeSourceOf(
  code: number,
  number: number,
  exchangeData?: ExchangeData,
): LineTypeSource | null {
  return SOURCE_NAMES[lineTypeSourceCode(code, number, exchangeData)]!;
}

/** Counts by SourceCode (index) as counts by source name, leaving out none and zeros. */
export function sourceTallyOf(counts: Float64Array): Record<string, number> {
  const tally: Record<string, number> = {};
  counts.forEach((count, code) => {
    const name = SOURCE_NAMES[code];
    if (count > 0 && name) tally[name] = count;
  });
  return tally;
}
