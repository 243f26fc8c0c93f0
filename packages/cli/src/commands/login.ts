import { Command } from 'commander';
import type { Context } from '../context.js';

export function loginCommand(context: Context): Command {
  return new Command('login')
    .description('sign in; the session is kept in the profile until it expires or scrub logout')
    .option('--email <email>', 'the e-mail address (asked for when left out at a terminal)')
    .option('--password-stdin', 'read the password from stdin instead of asking for it')
    .option(
      '--code <code>',
      'the authenticator app code (or a recovery code) when the account asks for one; also SCRUB_MFA_CODE',
    )
    .action(async (options: unknown) => {
      const { login } = await import('../actions/login.js');
      await login(options, context);
    });
}
