import { z } from 'zod';
import { askFirst } from '../ask-first.js';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { count, formatPairs } from '../format.js';
import { findPlan } from '../plan-choice.js';
import { parseInput } from '../validate.js';

const BuyOptionsSchema = z.object({
  amount: z.coerce
    .number({ error: '--amount must be a number of dollars, e.g. --amount 10' })
    .positive('--amount must be more than 0')
    .optional(),
  yes: z.boolean().optional(),
});

/**
 * Buys a prepaid plan on the default card; a refused card exits 4 with the provider's reason. A
 * card whose bank wants 3-D Secure prints a page to confirm on and waits for it.
 */
export async function buy(planName: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(BuyOptionsSchema, rawOptions);
  const { scrub } = await requireCredentials(context);
  const plan = await findPlan(scrub, planName);
  const amount = options.amount ?? (plan.variable ? undefined : plan.plan_amount);
  const cards = await scrub.cards.listMethods();
  const card = cards.find((c) => c.is_default);
  await askFirst(context, {
    yes: options.yes,
    question: `Buy ${plan.plan_name} for $${amount ?? '?'} on ${card ? `${card.brand} ending ${card.last4}` : 'your default card'}?`,
    command: 'scrub buy',
    declined: 'Nothing bought.',
  });
  const result = await scrub.purchases
    .buy({
      reference_code: plan.plan_reference,
      ...(options.amount !== undefined ? { amount: options.amount } : {}),
    })
    .catch(async (error: unknown) => {
      const { AuthenticationRequiredError } = await import('@scrub/sdk');
      if (!(error instanceof AuthenticationRequiredError) || !error.paymentIntentId || !error.nextActionUrl)
        throw error;
      const { waitForBank } = await import('../bank-confirmation.js');
      return waitForBank(scrub, context, {
        paymentIntentId: error.paymentIntentId,
        nextActionUrl: error.nextActionUrl,
      });
    });
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  stdout.write(
    formatPairs([
      ['Bought', `${plan.plan_name} ($${result.amount})`],
      ['Credits added', plan.unlimited ? 'unlimited checks' : count(result.credits_added)],
      ['Purchase', result.purchase_id],
    ]),
  );
}
