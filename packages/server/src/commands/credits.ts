import { Command, InvalidArgumentError } from 'commander';
import { grantCreditsOperation, MAX_CREDITS } from '../account/grant-credits.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { runLocalOperation } from '../local-control/local-control.js';
import { type DatabaseHandle, openDatabase } from '../storage/database.js';

export interface CreditsCommandIo {
  /** The settings (the environment's, by default). */
  config(): ServerConfig;
  /** Opens the database when no running server holds it (the configured one, by default). */
  open(config: ServerConfig): Promise<DatabaseHandle>;
  out(text: string): void;
}

const defaultIo: CreditsCommandIo = {
  config: () => loadConfig(),
  open: (config) => openDatabase(config.database),
  out: (text) => process.stdout.write(text),
};

function positiveCredits(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > MAX_CREDITS) {
    throw new InvalidArgumentError('a whole number of credits, at least 1');
  }
  return n;
}

/** `scrub-server credits grant <email> <credits>`: how an operator gives credits without a purchase. */
export function creditsCommand(io: CreditsCommandIo = defaultIo): Command {
  const credits = new Command('credits').description("Change an account's credits (written to the ledger)");
  credits
    .command('grant')
    .description('Give credits to the account with this e-mail and print its new balance')
    .argument('<email>', 'the e-mail the account signs in with')
    .argument('<credits>', 'how many credits to add', positiveCredits)
    .option('--note <text>', 'why, kept with the ledger entry')
    .action(async (email: string, amount: number, options: { note?: string }) => {
      // Through the running server when it holds the embedded database; otherwise directly.
      const granted = await runLocalOperation(
        io.config(),
        grantCreditsOperation,
        { email, credits: amount, note: options.note ?? null },
        { open: io.open },
      );
      const which =
        granted.sameEmail > 0 ? ` (the newest of ${granted.sameEmail + 1} accounts with this e-mail)` : '';
      io.out(
        `Granted ${amount.toLocaleString('en-US')} credits to ${granted.email}${which}. Balance: ${granted.balance.toLocaleString('en-US')}.\n`,
      );
    });
  return credits;
}
