import { z } from 'zod';
import { askFirst } from '../ask-first.js';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { formatPairs } from '../format.js';
import { parseInput } from '../validate.js';

const RefundSchema = z.object({
  purchase: z.uuid('<purchase> is the purchase id that scrub admin purchases shows'),
  amount: z.coerce
    .number({ error: '--amount must be a number of dollars, e.g. --amount 2.50' })
    .positive('--amount must be more than 0')
    .multipleOf(0.01, '--amount takes whole cents, e.g. 2.50')
    .optional(),
  reason: z
    .string({ error: '--reason is required: say why (the customer is mailed it)' })
    .trim()
    .min(1, '--reason is required: say why (the customer is mailed it)')
    .max(500, '--reason takes at most 500 characters'),
  yes: z.boolean().optional(),
});

/** `scrub admin refund <user> <purchase> [--amount] --reason`: refunds through the provider. */
export async function adminRefund(
  user: string,
  purchase: string,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const options = parseInput(RefundSchema, { ...(rawOptions as object), purchase });
  const { scrub } = await requireCredentials(context);
  await askFirst(context, {
    yes: options.yes,
    question: `Refund ${options.amount === undefined ? 'what is left of' : `$${options.amount.toFixed(2)} of`} purchase ${options.purchase} to ${user}'s card?`,
    command: 'scrub admin refund',
    declined: 'Nothing refunded.',
  });
  const answer = await scrub.admin.users.refund(user, options.purchase, {
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    reason: options.reason,
  });
  if ((await context.output()) === 'json') {
    context.io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return;
  }
  context.io.stdout.write(
    formatPairs([
      ['Refunded', `$${answer.amount.toFixed(2)} (${answer.refund_id})`],
      ['Refunded in all', `$${answer.refunded_amount.toFixed(2)}`],
      ['Credits taken back', String(answer.credits_taken)],
      ['Already spent', String(answer.credits_shortfall)],
      ['Balance', String(answer.credits)],
    ]),
  );
}
