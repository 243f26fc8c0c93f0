import { Command } from 'commander';
import type { Context } from '../context.js';

export function buyCommand(context: Context): Command {
  return new Command('buy')
    .description(
      'buy a prepaid plan on the default card (see scrub plans; monthly plans: scrub subscription start)',
    )
    .argument('<plan>', 'the plan reference or name, e.g. 79541679412213 or "pay as you go"')
    .option('--amount <dollars>', 'the amount, for the plans sold by amount')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (plan: string, options: unknown) => {
      const { buy } = await import('../actions/buy.js');
      await buy(plan, options, context);
    });
}
