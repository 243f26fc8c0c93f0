import { Command } from 'commander';
import type { Context } from '../context.js';

export function plansCommand(context: Context): Command {
  return new Command('plans')
    .description('list the plans and their prices')
    .option('--type <type>', 'only plans of one type: prepaid, postpaid or intro')
    .action(async (options: unknown) => {
      const { plans } = await import('../actions/plans.js');
      await plans(options, context);
    });
}
