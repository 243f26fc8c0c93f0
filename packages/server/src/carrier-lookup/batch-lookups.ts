import type { CheckAnswer } from '../checks/answer-cache.js';
import { withCarrierLookup } from './carrier-answer.js';
import type { CarrierLookups } from './carrier-lookups.js';

/** Lookups of a batch asked of the provider at once: each has its own deadline. */
const LOOKUPS_AT_ONCE = 8;

/**
 * A batch's answers with their carrier lookups (`POST /verify` with `lookup: carrier`): each
 * distinct number to charge (`billable`) is looked up; a number the cache answered keeps its cached
 * answer (`cachedAnswers`), lookup included. Each answer stays its own object, as the batch's
 * billing tells a number's first answer from its repeats by identity; `first` is updated to match.
 */
export async function withBatchLookups(
  lookups: CarrierLookups,
  answers: CheckAnswer[],
  first: Map<string, CheckAnswer>,
  billable: readonly string[],
  cachedAnswers: ReadonlyMap<string, CheckAnswer>,
): Promise<CheckAnswer[]> {
  const looked = new Map(cachedAnswers);
  for (let i = 0; i < billable.length; i += LOOKUPS_AT_ONCE) {
    await Promise.all(
      billable.slice(i, i + LOOKUPS_AT_ONCE).map(async (e164) => {
        looked.set(e164, withCarrierLookup(first.get(e164)!, await lookups.lookUp(e164)));
      }),
    );
  }
  return answers.map((answer) => {
    const withLookup = answer.line_type === 'invalid' ? undefined : looked.get(answer.phone_number);
    if (withLookup === undefined) return answer;
    if (first.get(answer.phone_number) !== answer) return { ...withLookup };
    first.set(answer.phone_number, withLookup);
    return withLookup;
  });
}
