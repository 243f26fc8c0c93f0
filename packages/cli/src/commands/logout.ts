import { Command } from 'commander';
import type { Context } from '../context.js';

export function logoutCommand(context: Context): Command {
  return new Command('logout')
    .description("sign out: revoke the profile's session and remove it (a saved API key stays)")
    .option('--everywhere', 'end every session of the account, on every device')
    .action(async (options: unknown) => {
      const { logout } = await import('../actions/logout.js');
      await logout(options, context);
    });
}
