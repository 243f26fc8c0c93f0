import type { Scrub, Subscription } from '@scrub/sdk';
import { z } from 'zod';
import { askFirst } from '../ask-first.js';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { formatPairs } from '../format.js';
import { findPlan } from '../plan-choice.js';
import { parseInput } from '../validate.js';

const OptionsSchema = z.object({ yes: z.boolean().optional() }).default({});

type Action = 'show' | 'start' | 'switch' | 'pause' | 'resume' | 'cancel';

async function print(subscription: Subscription | null, context: Context): Promise<void> {
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify({ subscription }, null, 2)}\n`);
    return;
  }
  if (!subscription) {
    stdout.write('No subscription. Start one with scrub subscription start <plan>.\n');
    return;
  }
  stdout.write(
    formatPairs([
      ['Subscription', subscription.id],
      ['Plan', subscription.plan_reference],
      ['Status', subscription.status],
      [subscription.cancel_at_period_end ? 'Ends' : 'Renews', subscription.current_period_end.slice(0, 10)],
    ]),
  );
}

/**
 * Starts the monthly plan; a card whose bank wants 3-D Secure prints a single-use page to confirm
 * the first month on and waits for it, as `scrub buy` does, then shows the subscription.
 */
async function startWithBank(scrub: Scrub, planReference: string, context: Context) {
  try {
    return await scrub.subscriptions.start(planReference);
  } catch (error) {
    const { AuthenticationRequiredError } = await import('@scrub/sdk');
    if (!(error instanceof AuthenticationRequiredError) || !error.paymentIntentId || !error.nextActionUrl)
      throw error;
    const { waitForBank } = await import('../bank-confirmation.js');
    await waitForBank(scrub, context, {
      paymentIntentId: error.paymentIntentId,
      nextActionUrl: error.nextActionUrl,
    });
    return scrub.subscriptions.get();
  }
}

/** Shows, starts, switches, pauses, resumes or cancels the monthly plan. */
export async function subscriptionAction(
  action: Action,
  planName: string | undefined,
  rawOptions: unknown,
  context: Context,
): Promise<void> {
  const options = parseInput(OptionsSchema, rawOptions ?? {});
  const { scrub } = await requireCredentials(context);
  if (action === 'start' || action === 'switch') {
    const plan = await findPlan(scrub, planName ?? '');
    await askFirst(context, {
      yes: options.yes,
      question:
        action === 'start'
          ? `Subscribe to ${plan.plan_name} at $${plan.plan_amount}/month, charged now on your default card?`
          : `Switch to ${plan.plan_name} ($${plan.plan_amount}/month) from the next period?`,
      command: `scrub subscription ${action}`,
      declined: 'Subscription unchanged.',
    });
    await print(
      await (action === 'start'
        ? startWithBank(scrub, plan.plan_reference, context)
        : scrub.subscriptions.switch(plan.plan_reference)),
      context,
    );
    return;
  }
  if (action === 'cancel') {
    await askFirst(context, {
      yes: options.yes,
      question: 'Cancel the subscription at the end of the paid period?',
      command: 'scrub subscription cancel',
      declined: 'Subscription unchanged.',
    });
  }
  const run = {
    show: () => scrub.subscriptions.get(),
    pause: () => scrub.subscriptions.pause(),
    resume: () => scrub.subscriptions.resume(),
    cancel: () => scrub.subscriptions.cancel(),
  };
  await print(await run[action](), context);
}
