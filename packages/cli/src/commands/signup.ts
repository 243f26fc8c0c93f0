import { Command } from 'commander';
import type { Context } from '../context.js';

export function signupCommand(context: Context): Command {
  return new Command('signup')
    .description('create an account; a 6-digit code is e-mailed to confirm it')
    .option('--email <email>', 'the e-mail address, which is also the sign-in name')
    .option('--name <name>', 'your name')
    .option('--password-stdin', 'read the password from stdin instead of asking for it')
    .action(async (options: unknown) => {
      const { signup } = await import('../actions/signup.js');
      await signup(options, context);
    });
}
