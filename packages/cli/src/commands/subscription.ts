import { Command } from 'commander';
import type { Context } from '../context.js';

type Action = 'show' | 'start' | 'switch' | 'pause' | 'resume' | 'cancel';

export function subscriptionCommand(context: Context): Command {
  const subscription = new Command('subscription').description('the monthly plan');
  const run =
    (action: Action) =>
    async (...args: unknown[]) => {
      const { subscriptionAction } = await import('../actions/subscription.js');
      const plan = typeof args[0] === 'string' ? args[0] : undefined;
      const options = (plan === undefined ? args[0] : args[1]) as unknown;
      await subscriptionAction(action, plan, options, context);
    };
  subscription.command('show').description('the subscription, if any').action(run('show'));
  subscription
    .command('start')
    .description('subscribe to a monthly plan on the default card (first month charged now)')
    .argument('<plan>', 'a monthly plan: reference or name (STANDARD, POWER, ELITE)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(run('start'));
  subscription
    .command('switch')
    .description('switch to another monthly plan from the next period')
    .argument('<plan>', 'a monthly plan: reference or name')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(run('switch'));
  subscription
    .command('pause')
    .description('pause billing and the plan (checks and bulk jobs are refused until resumed)')
    .action(run('pause'));
  subscription.command('resume').description('resume billing and the plan').action(run('resume'));
  subscription
    .command('cancel')
    .description('end the subscription when the paid period ends')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(run('cancel'));
  return subscription;
}
