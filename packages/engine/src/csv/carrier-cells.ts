import { ClassCode, FIRST_INVALID_CODE, type LineType } from '../classify.ts';
import { SourceCode } from '../line-type-source.ts';

/** A lookup's line type as the ClassCode the scrubber writes. */
const CLASS_CODES: Readonly<Record<string, number>> = {
  unknown_geographic: ClassCode.UNKNOWN_GEOGRAPHIC,
  mobile: ClassCode.MOBILE,
  landline: ClassCode.LANDLINE,
  voip: ClassCode.VOIP,
  toll_free: ClassCode.TOLL_FREE,
};

/** The result column a job with carrier lookups gets, last: 1 when a lookup says the number moved. */
export const PORTED_COLUMN = 'Ported';

/**
 * The carrier lookups a job's service made before its scrub (the engine never asks a provider):
 * plain typed arrays, so they cross to a worker thread as they are.
 */
export interface CarrierOption {
  /** The numbers a lookup gave a line type (10 digits as a number), ascending. */
  numbers: Float64Array;
  /** Per number, the lookup's line type as a ClassCode. */
  lineTypes: Uint8Array;
}

/** A carrier option from the lookups that gave a line type, in any order. */
export function carrierOptionOf(answers: Iterable<{ number: number; lineType: LineType }>): CarrierOption {
  const sorted = [...answers].sort((a, b) => a.number - b.number);
  return {
    numbers: Float64Array.from(sorted, (answer) => answer.number),
    lineTypes: Uint8Array.from(sorted, (answer) => CLASS_CODES[answer.lineType]!),
  };
}

/** The lookup's ClassCode for a number; -1 when no lookup gave it a line type. */
export function carrierLineTypeOf(option: CarrierOption, number: number): number {
  const { numbers } = option;
  let low = 0;
  let high = numbers.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = numbers[middle]!;
    if (found === number) return option.lineTypes[middle]!;
    if (found < number) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Sources a lookup can contradict: a port. Sample data is not real, so it proves nothing. */
const REAL_TABLES: ReadonlySet<number> = new Set([
  SourceCode.EXCHANGE,
  SourceCode.THOUSANDS_BLOCK,
  SourceCode.NUMBER_OVERRIDE,
]);

/**
 * Whether a lookup's line type says the number was ported: it differs from the one a real table
 * gave (the same rule as a single check's, server carrier-answer.ts).
 */
export function portedBy(lookedUp: number, tables: number, tablesSource: number): boolean {
  return lookedUp !== tables && tables !== ClassCode.UNKNOWN_GEOGRAPHIC && REAL_TABLES.has(tablesSource);
}

/**
 * A batch's carrier lookups: a valid number one gave a line type has it (`kinds`), and rests on it
 * (`sources`); `ported` marks a row whose lookup contradicts a real table's answer.
 */
export function applyCarrierLookups(
  carrier: CarrierOption,
  count: number,
  kinds: Uint8Array,
  numbers: Float64Array,
  sources: Uint8Array,
  ported: Uint8Array,
): void {
  for (let n = 0; n < count; n++) {
    ported[n] = 0;
    const kind = kinds[n]!;
    if (kind >= FIRST_INVALID_CODE) continue;
    const lookedUp = carrierLineTypeOf(carrier, numbers[n]!);
    if (lookedUp < 0) continue;
    ported[n] = portedBy(lookedUp, kind, sources[n]!) ? 1 : 0;
    kinds[n] = lookedUp;
    sources[n] = SourceCode.CARRIER_LOOKUP;
  }
}

/** The Ported cell, with the separator in front: `1` ported, empty when no lookup said so. */
export class PortedCells {
  readonly header: Buffer;
  readonly longest: number;
  /** By answer (0 not said, 1 ported): a row's tail column (`tailCells`). */
  readonly cells: readonly Buffer[];

  constructor(sep: string) {
    this.header = Buffer.from(`${sep}${PORTED_COLUMN}`);
    this.cells = ['', '1'].map((cell) => Buffer.from(`${sep}${cell}`));
    this.longest = Math.max(this.header.length, ...this.cells.map((cell) => cell.length));
  }
}
