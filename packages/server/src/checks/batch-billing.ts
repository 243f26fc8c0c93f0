import type { AnswerCache, CachedAnswer, CheckAnswer } from './answer-cache.js';

/** How a batch's valid numbers are paid: new ones, and ones the cache already answered. */
export interface BatchBilling {
  /** Each distinct valid number's first answer in the batch: the one charged, when it is charged. */
  first: Map<string, CheckAnswer>;
  /** Distinct numbers to charge for. */
  billable: string[];
  /** The cache's entries for `billable`, in the same order: claimed for this batch until it is charged. */
  claimed: CachedAnswer[];
  /** Numbers answered from the cache, with the cached answer: paid for by an earlier check. */
  cached: Map<string, CheckAnswer>;
}

/**
 * Sorts a batch's valid numbers as single checks would be charged: a number the cache answered
 * (and whose first check was paid for) is free; every other distinct number costs one credit,
 * however often the batch repeats it, and is claimed in the cache for this batch (its answer
 * remembered, settled by `paid`), so that a concurrent check of it waits for this batch's charge.
 *
 * A number is claimed in the same turn of the event loop as the look-up that found it new: with a
 * wait in between, another batch could find it new too, and both would charge it. A number another
 * check is still paying for is waited for first, then every number still undecided is looked up
 * again; nothing is claimed before that wait, so two batches never wait for each other.
 */
export async function billingOf(
  answers: CheckAnswer[],
  cache: AnswerCache,
  profileId: string,
  generation: string,
  paid: Promise<boolean>,
): Promise<BatchBilling> {
  const first = new Map<string, CheckAnswer>();
  for (const answer of answers) {
    if (answer.line_type !== 'invalid' && !first.has(answer.phone_number))
      first.set(answer.phone_number, answer);
  }
  const cached = new Map<string, CheckAnswer>();
  let undecided = [...first.keys()];
  for (;;) {
    const found: [string, CachedAnswer][] = [];
    const billable: string[] = [];
    for (const e164 of undecided) {
      const entry = cache.get(profileId, generation, e164);
      if (entry) found.push([e164, entry]);
      else billable.push(e164);
    }
    if (found.length === 0) {
      const claimed = billable.map((e164) => {
        const entry: CachedAnswer = { answer: first.get(e164)!, paid };
        cache.set(profileId, generation, e164, entry);
        return entry;
      });
      return { first, billable, claimed, cached };
    }
    // A cached answer whose first check is still being paid for waits for it; if that was refused, it is new.
    const settled = await Promise.all(found.map(([, entry]) => entry.paid));
    undecided = billable;
    found.forEach(([e164, entry], i) => {
      if (settled[i]) cached.set(e164, entry.answer);
      else undecided.push(e164);
    });
  }
}
