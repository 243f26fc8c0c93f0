import { Command } from 'commander';
import type { Context } from '../context.js';

export function purchasesCommand(context: Context): Command {
  return new Command('purchases')
    .description('purchase history, newest first')
    .option('--year <year>', 'only this year')
    .option('--month <month>', 'only this month (1-12) of --year')
    .option('--limit <n>', 'at most this many (1-100, default 20)')
    .action(async (options: unknown) => {
      const { purchases } = await import('../actions/purchases.js');
      await purchases(options, context);
    });
}
