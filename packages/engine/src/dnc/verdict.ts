import { ClassCode, FIRST_INVALID_CODE } from '../classify.ts';

/**
 * What a DNC answer says about one number: the rule single checks and bulk files share, so that
 * both answer the same for the same number.
 * - LISTED: a list that counts holds the number (`dnc: 1`), whatever its line type.
 * - CLEAN: a valid number, at least one list covering it was consulted, none holds it (`dnc: 0`).
 * - UNCHECKED: a valid number no loaded list covers (`dnc: null`, `unchecked` in a CSV): never
 *   "clean" without a list.
 * - INVALID: an invalid number no list holds: nothing to call (`dnc: null`, an empty CSV cell).
 */
export const DncState = { CLEAN: 0, LISTED: 1, INVALID: 2, UNCHECKED: 3 } as const;
export type DncState = (typeof DncState)[keyof typeof DncState];

/** `listed`: the lists that count and hold the number; `covering`: those that count and cover it. */
export function dncStateOf(code: ClassCode, listed: number, covering: number): DncState {
  if (listed !== 0) return DncState.LISTED;
  if (code >= FIRST_INVALID_CODE) return DncState.INVALID;
  return covering !== 0 ? DncState.CLEAN : DncState.UNCHECKED;
}

/**
 * A number on a DNC list exists (someone registered it), whatever stale exchange data says: an
 * exchange the data calls not in service becomes UNKNOWN_GEOGRAPHIC. The NANP's own rules (N11,
 * 555, area codes not in service) are never overridden.
 */
export function codeGivenListing(code: ClassCode, listed: number): ClassCode {
  return listed !== 0 && code === ClassCode.EXCHANGE_NOT_IN_SERVICE ? ClassCode.UNKNOWN_GEOGRAPHIC : code;
}

/** The JSON value of a state: 1, 0, or null for unchecked and invalid numbers. */
export function dncValueOf(state: DncState): 0 | 1 | null {
  return state === DncState.LISTED ? 1 : state === DncState.CLEAN ? 0 : null;
}
