import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { formatCredits, formatPairs } from '../format.js';

export async function credits(context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const snapshot = await scrub.account.credits();
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
    return;
  }
  stdout.write(
    formatPairs([
      ['Credits', formatCredits(snapshot.credits_remaining)],
      ['Plan', `${snapshot.user_plan.plan_name} (${snapshot.user_plan.plan_status})`],
      ['Subscription', snapshot.subscription_status],
    ]),
  );
}
