import { Command } from 'commander';
import type { Context } from '../context.js';

export function passwordCommand(context: Context): Command {
  const password = new Command('password').description('forgot, reset or change the password');
  password
    .command('forgot')
    .description('e-mail a code to reset a forgotten password')
    .option('--email <email>', 'the account e-mail address')
    .action(async (options: unknown) => {
      const { passwordForgot } = await import('../actions/password.js');
      await passwordForgot(options, context);
    });
  password
    .command('reset')
    .description('set a new password with the code from scrub password forgot')
    .option('--email <email>', 'the account e-mail address')
    .option('--code <code>', 'the 6-digit code (asked for when left out at a terminal)')
    .option('--password-stdin', 'read the new password from stdin instead of asking for it')
    .action(async (options: unknown) => {
      const { passwordReset } = await import('../actions/password.js');
      await passwordReset(options, context);
    });
  password
    .command('change')
    .description('change the signed-in password')
    .option('--password-stdin', 'read two lines from stdin: the current password, then the new one')
    .action(async (options: unknown) => {
      const { passwordChange } = await import('../actions/password.js');
      await passwordChange(options, context);
    });
  return password;
}
