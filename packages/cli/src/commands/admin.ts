import { Command } from 'commander';
import type { Context } from '../context.js';

const USER_ARGUMENT = ['<user>', "the account's e-mail address or id"] as const;

function accountCommands(admin: Command, context: Context): void {
  admin
    .command('users')
    .description('list accounts, newest first')
    .option('--search <text>', 'only accounts whose e-mail or name contains this')
    .option('--role <role>', 'only this role: User, Agency, Admin or "Super Admin"')
    .option('--page <n>', 'the page to show (default 1)')
    .option('--limit <n>', 'accounts per page, 1 to 100 (default 20)')
    .option('--all', 'every account of every page')
    .action(async (options: unknown) => {
      const { adminUsers } = await import('../actions/admin-users.js');
      await adminUsers(options, context);
    });
  admin
    .command('user')
    .description("one account: credits, plan, status, API key's last 4, created, last sign-in")
    .argument(...USER_ARGUMENT)
    .action(async (user: string) => {
      const { adminUser } = await import('../actions/admin-users.js');
      await adminUser(user, context);
    });
  admin
    .command('create')
    .description('create an account (only a Super Admin creates admins); the password is asked or piped')
    .option('--email <address>', 'its e-mail address')
    .option('--type <type>', 'user, agency, admin or super_admin (default user)')
    .option('--name <name>', 'its full name')
    .option('--agency <agency>', "a User account's Agency (its e-mail or id): the account is its client")
    .option('--password-stdin', 'read the password from stdin')
    .action(async (options: unknown) => {
      const { adminCreate } = await import('../actions/admin-accounts.js');
      await adminCreate(options, context);
    });
  admin
    .command('edit')
    .description("change an account's e-mail, type, name, password or Agency")
    .argument(...USER_ARGUMENT)
    .option('--email <address>', 'the new e-mail address')
    .option('--type <type>', 'user, agency, admin or super_admin')
    .option('--name <name>', 'the new full name')
    .option('--agency <agency>', 'make the User account a client of this Agency (its e-mail or id)')
    .option('--no-agency', "unlink the account from its Agency: it is nobody's client")
    .option('--password-stdin', 'read a new password from stdin (otherwise it is left unchanged)')
    .action(async (user: string, options: unknown) => {
      const { adminEdit } = await import('../actions/admin-accounts.js');
      await adminEdit(user, options, context);
    });
  for (const [name, description] of [
    ['disable', 'disable an account: its key, tokens and queued jobs (refunded) stop at once'],
    ['enable', 'enable a disabled account again'],
    ['sign-out', 'sign an account out everywhere'],
  ] as const) {
    admin
      .command(name)
      .description(description)
      .argument(...USER_ARGUMENT)
      .action(async (user: string) => {
        const { adminSetStatus } = await import('../actions/admin-accounts.js');
        await adminSetStatus(name, user, context);
      });
  }
  admin
    .command('reset-password')
    .description("set an account's password; its earlier sessions end")
    .argument(...USER_ARGUMENT)
    .option('--password-stdin', 'read the password from stdin')
    .action(async (user: string, options: unknown) => {
      const { adminResetPassword } = await import('../actions/admin-accounts.js');
      await adminResetPassword(user, options, context);
    });
}

export function adminCommand(context: Context): Command {
  const admin = new Command('admin').description(
    'the admin area: accounts, credits, acting as a user, the audit log',
  );
  accountCommands(admin, context);
  admin
    .command('credits')
    .description('add (+N) or take (-N) credits, with a reason')
    .argument(...USER_ARGUMENT)
    .argument('<change>', '+N or -N')
    .option('--reason <text>', 'why (required; kept in the ledger and the audit log)')
    .action(async (user: string, change: string, options: unknown) => {
      const { adminCredits } = await import('../actions/admin-credits.js');
      await adminCredits(user, change, options, context);
    });
  admin
    .command('purchases')
    .description("an account's purchase history, newest first, with each purchase's id")
    .argument(...USER_ARGUMENT)
    .option('--year <year>', 'only this year')
    .option('--month <month>', 'only this month (1-12) of --year')
    .option('--limit <n>', 'at most this many (1-100, default 20)')
    .action(async (user: string, options: unknown) => {
      const { purchases } = await import('../actions/purchases.js');
      await purchases(options, context, user);
    });
  admin
    .command('refund')
    .description("refund a purchase to the customer's card; its credits are taken back pro rata")
    .argument(...USER_ARGUMENT)
    .argument('<purchase>', 'the purchase id (scrub admin purchases <user>)')
    .option('--amount <dollars>', 'refund only this much (default: all that is left)')
    .option('--reason <text>', 'why (required; mailed to the customer, kept in the audit log)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (user: string, purchase: string, options: unknown) => {
      const { adminRefund } = await import('../actions/admin-refund.js');
      await adminRefund(user, purchase, options, context);
    });
  admin
    .command('audit')
    .description('the audit log, newest first (Super Admins)')
    .option('--user <id>', "only entries about this account's id")
    .option('--page <n>', 'the page to show (default 1)')
    .option('--limit <n>', 'entries per page, 1 to 100 (default 20)')
    .action(async (options: unknown) => {
      const { adminAudit } = await import('../actions/admin-audit.js');
      await adminAudit(options, context);
    });
  admin
    .command('as')
    .description('run one scrub command acting as a user: scrub admin as <user> -- check 2015550123')
    .argument(...USER_ARGUMENT)
    .argument('<command...>', 'the scrub command to run, after --')
    .action(async (user: string, command: string[]) => {
      const { adminAs } = await import('../actions/admin-as.js');
      await adminAs(user, command, context);
    });
  return admin;
}
