import { Command } from 'commander';
import type { Context } from '../context.js';

export function accountCommand(context: Context): Command {
  const account = new Command('account')
    .alias('whoami')
    .description(
      'who the credentials in use belong to, their plan and credits, and which credentials they are',
    )
    .action(async () => {
      const { showAccount } = await import('../actions/account.js');
      await showAccount(context);
    });
  account
    .command('lists')
    .description(
      'the operator lists (known litigators...) your checks and jobs flag numbers with by default; name some to set them',
    )
    .argument('[names...]', 'lists to count by default, comma-separated or one per argument')
    .option('--none', 'count no list by default')
    .action(async (names: string[], options: { none?: boolean }) => {
      const { accountLists } = await import('../actions/account-lists.js');
      await accountLists(names, options, context);
    });
  account
    .command('auto-top-up')
    .description(
      'auto top-up (buy a pack on the default card when the balance falls below a threshold) and the low-balance e-mail; no options: show them',
    )
    .option('--on', 'turn auto top-up on (again, after a declined card)')
    .option('--off', 'turn auto top-up off')
    .option('--below <credits>', 'buy when a charge takes the balance below this many credits')
    .option('--plan <plan>', 'the prepaid pack to buy, by reference or name (see scrub plans)')
    .option('--amount <dollars>', 'the amount, for the packs sold by amount')
    .option('--low-balance <credits>', 'e-mail me when the balance falls below this many credits')
    .option('--no-low-balance', 'no low-balance e-mail')
    .action(async (options: unknown) => {
      const { autoTopUp } = await import('../actions/auto-top-up.js');
      await autoTopUp(options, context);
    });
  account
    .command('pause')
    .description(
      'pause the plan (PUT /user/plan-status): checks, jobs and buying stop; a subscription stops billing',
    )
    .action(async () => {
      const { setPlanStatus } = await import('../actions/account.js');
      await setPlanStatus('paused', context);
    });
  account
    .command('activate')
    .description(
      'reactivate a paused plan, with or without a subscription (a paused subscription resumes too)',
    )
    .action(async () => {
      const { setPlanStatus } = await import('../actions/account.js');
      await setPlanStatus('active', context);
    });
  account
    .command('export')
    .description(
      'everything the service keeps about your account (profile, files, purchases, phone log) as JSON',
    )
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (options: unknown) => {
      const { accountExport } = await import('../actions/account-data.js');
      await accountExport(options, context);
    });
  account
    .command('delete')
    .description('delete your account for good, after typing its e-mail address (export it first)')
    .option('--confirm-email <address>', "the account's e-mail address, to delete without being asked")
    .action(async (options: unknown) => {
      const { accountDelete } = await import('../actions/account-data.js');
      await accountDelete(options, context);
    });
  return account;
}
