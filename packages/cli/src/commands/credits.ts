import { Command } from 'commander';
import type { Context } from '../context.js';

export function creditsCommand(context: Context): Command {
  return new Command('credits')
    .description('credits left, plan and subscription; with --history, every credit entry and its balance')
    .option(
      '--history',
      'the credit history: every purchase, check, job, give-back, refund and adjustment, newest first',
    )
    .option('--month <YYYY-MM>', 'with --history: only that month (UTC)')
    .option('--page <n>', 'with --history: the page to show (default 1)')
    .option('--limit <n>', 'with --history: entries per page, 1 to 200 (default 50)')
    .option('--all', 'with --history: every entry of every page')
    .option('--csv', 'with --history: the CSV export of every entry (of --month)')
    .option('-o, --output <file>', 'with --csv: write the CSV to this file instead of stdout')
    .action(async (options: { history?: boolean }) => {
      if (options.history || Object.keys(options).length > 0) {
        const { creditHistory } = await import('../actions/credit-history.js');
        await creditHistory(options, context);
        return;
      }
      const { credits } = await import('../actions/credits.js');
      await credits(context);
    });
}
