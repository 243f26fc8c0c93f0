import { Command } from 'commander';
import type { Context } from '../context.js';
import { collectList, collectListNames, LISTS_OPTION_HELP } from '../option-values.js';

export function verifyCommand(context: Context): Command {
  return new Command('verify')
    .alias('check')
    .description(
      'check phone numbers for line type and do-not-call status (one credit per number; invalid ones are free)',
    )
    .argument('<phones...>', 'the numbers, or - to read them from stdin, one per line')
    .option('--csv', 'print CSV (a header, then a row per number) instead of a table')
    .option(
      '--fail-on <conditions>',
      'exit 5 when any answer is one of: dnc, unchecked (no do-not-call list covers it), invalid, mobile, landline, voip, toll_free, unknown_geographic (comma-separated or repeated)',
      collectList,
    )
    .option('--lists <names>', LISTS_OPTION_HELP, collectListNames)
    .option(
      '--consent-date <YYYY-MM-DD>',
      'also ask whether each number was permanently disconnected (reassigned) since consent was given, at the price the service sets per answer',
    )
    .option(
      '--lookup <kind>',
      'carrier: also ask a live carrier lookup of each valid number (the service must offer it; costs the credits it sets, only when it answers)',
    )
    .option(
      '--concurrency <n>',
      'batch requests in flight at once, 1 to 64 (default 4); each checks up to 1,000 numbers',
    )
    .action(async (phones: string[], options: unknown) => {
      const { verify } = await import('../actions/verify.js');
      await verify(phones, options, context);
    });
}
