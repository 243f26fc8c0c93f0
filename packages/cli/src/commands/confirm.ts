import { Command } from 'commander';
import type { Context } from '../context.js';

export function confirmCommand(context: Context): Command {
  return new Command('confirm')
    .description('confirm the e-mail address with the code from the sign-up e-mail')
    .option('--email <email>', 'the address signed up with')
    .option('--code <code>', 'the 6-digit code (asked for when left out at a terminal)')
    .option('--resend', 'e-mail a new code instead')
    .action(async (options: unknown) => {
      const { confirm } = await import('../actions/confirm.js');
      await confirm(options, context);
    });
}
