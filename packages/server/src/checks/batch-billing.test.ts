import { describe, expect, it } from 'vitest';
import { AnswerCache, type CheckAnswer } from './answer-cache.js';
import { billingOf } from './batch-billing.js';

const answerOf = (phone: string): CheckAnswer => ({
  phone_number: phone,
  line_type: 'mobile',
  dnc: 0,
  invalid_reason: null,
  invalid_message: null,
  extension: null,
  dnc_sources: [],
  dnc_lists_checked: ['federal'],
  data_source: 'sample',
  dataset_versions: {},
});

/** A charge still in flight: its promise, and how it ends. */
function charge() {
  let settle: (paid: boolean) => void = () => {};
  const paid = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  return { paid, settle };
}

const X = '+12012345678';
const Y = '+12023334444';

describe('billingOf', () => {
  it('bills a number once when two batches waiting on the same charge both find it new', async () => {
    const cache = new AnswerCache({ ttlSeconds: 60, maxEntries: 100 });
    const first = charge();
    await billingOf([answerOf(X)], cache, 'a', 'g', first.paid);

    // Both wait for X's charge, then go on in the same turn of the event loop: Y is billed by one.
    const second = charge();
    const third = charge();
    const both = Promise.all([
      billingOf([answerOf(X), answerOf(Y)], cache, 'a', 'g', second.paid),
      billingOf([answerOf(X), answerOf(Y)], cache, 'a', 'g', third.paid),
    ]);
    first.settle(true);
    // Each batch's own charge goes through once it is made: the one that did not bill Y waits for it.
    await new Promise((resolve) => setImmediate(resolve));
    second.settle(true);
    third.settle(true);
    const [b, c] = await both;
    expect([b.billable, c.billable].flat()).toEqual([Y]);
    expect([...b.cached.keys(), ...c.cached.keys()].sort()).toEqual([X, X, Y]);
  });
});
