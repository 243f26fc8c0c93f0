import type { CarrierLookup } from '@scrub/contract';
import type { CheckAnswer } from '../checks/answer-cache.js';
import { lineTypeOfTwilioType } from './twilio-line-types.js';

/** Table sources a lookup can contradict: a port. Sample data is not real, so it proves nothing. */
const REAL_TABLES = new Set(['exchange', 'thousands_block', 'number_override']);

/**
 * The tables' answer with a carrier lookup's: an answered lookup gives the line type
 * (`line_type_source: carrier_lookup`), and `ported: true` when its line type differs from the
 * real tables' (the number moved to another kind of carrier). A failed lookup, or one with no
 * Scrub line type, leaves the tables' answer and source as they were, and says why.
 */
export function withCarrierLookup(answer: CheckAnswer, lookup: CarrierLookup): CheckAnswer {
  const lineType = lookup.status === 'answered' ? lineTypeOfTwilioType(lookup.provider_type) : null;
  if (lineType === null) return { ...answer, carrier_lookup: lookup };
  const contradicts =
    lineType !== answer.line_type &&
    answer.line_type !== 'unknown_geographic' &&
    REAL_TABLES.has(answer.line_type_source ?? '');
  return {
    ...answer,
    line_type: lineType,
    line_type_source: 'carrier_lookup',
    ported: contradicts ? true : null,
    carrier_lookup: lookup,
  };
}

/** Whether a lookup was charged for: only an answered one. */
export function lookupAnswered(answer: CheckAnswer): boolean {
  return answer.carrier_lookup?.status === 'answered';
}
