import { Command } from 'commander';
import type { Context } from '../context.js';

export function accountCommand(context: Context): Command {
  return new Command('account')
    .alias('whoami')
    .description(
      'who the credentials in use belong to, their plan and credits, and which credentials they are',
    )
    .action(async () => {
      const { showAccount } = await import('../actions/account.js');
      await showAccount(context);
    });
}
