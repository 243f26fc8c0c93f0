import { Command } from 'commander';
import type { Context } from '../context.js';

export function usageCommand(context: Context): Command {
  return new Command('usage')
    .description(
      'Client Performance: checks by source, line types, DNC hit rate, credits spent and bought, jobs, by day or week',
    )
    .option('--from <YYYY-MM-DD>', 'from this day on (UTC; default: 30 days, or 12 weeks, before --to)')
    .option('--to <YYYY-MM-DD>', 'up to this day, included (UTC; default today)')
    .option('--interval <day|week>', 'sum by day or by week (Monday to Sunday)', 'day')
    .option('--account <id>', "another account's usage: an Agency's client, or any account for an admin")
    .option('--csv', 'the CSV export: a line per account and interval, and the total')
    .option('-o, --output <file>', 'with --csv: write the CSV to this file instead of stdout')
    .action(async (options: unknown) => {
      const { usage } = await import('../actions/usage.js');
      await usage(options, context);
    });
}
