import { describe, expect, it } from 'vitest';
import { mobileAnswerOf } from '../../test/check-answers.js';
import { AnswerCache } from './answer-cache.js';
import { billingOf } from './batch-billing.js';

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
    await billingOf([mobileAnswerOf(X)], cache, 'a', 'g', first.paid);

    // Both wait for X's charge, then go on in the same turn of the event loop: Y is billed by one.
    const second = charge();
    const third = charge();
    const both = Promise.all([
      billingOf([mobileAnswerOf(X), mobileAnswerOf(Y)], cache, 'a', 'g', second.paid),
      billingOf([mobileAnswerOf(X), mobileAnswerOf(Y)], cache, 'a', 'g', third.paid),
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
