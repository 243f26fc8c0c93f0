import type { CheckAnswer } from '../checks/answer-cache.js';
import type { ReassignedProvider } from './reassigned-provider.js';

/** Questions in flight at once to the provider for one batch: a query service limits its callers. */
const AT_ONCE = 8;

/** Why a number reassigned since the consent date is not callable, whatever the clock says. */
export const REASSIGNED_REASON =
  'reassigned: permanently disconnected on or after the consent date, so that consent does not cover its new subscriber';

/**
 * Adds the reassigned-number answer to each answer of a valid number (in place: the answers are
 * the ones cached). An invalid number answers no data without asking anyone.
 */
export async function addReassigned(
  provider: ReassignedProvider,
  answers: readonly CheckAnswer[],
  consentDate: string,
): Promise<void> {
  const pending = [...answers];
  const next = async (): Promise<void> => {
    for (let answer = pending.shift(); answer !== undefined; answer = pending.shift()) {
      if (answer.line_type === 'invalid') {
        Object.assign(answer, { reassigned: null, reassigned_source: null });
        continue;
      }
      Object.assign(answer, await provider.answer(answer.phone_number, consentDate));
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, answers.length) }, next));
}
