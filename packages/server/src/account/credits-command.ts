import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { applyLedgerEntry } from './ledger.js';
import { findProfilesByEmail } from './profiles.js';

export interface CreditsCommandIo {
  /** Opens the configured database (the environment's settings, by default). */
  open(): Promise<DatabaseHandle>;
  out(text: string): void;
}

const defaultIo: CreditsCommandIo = {
  open: () => openDatabase(loadConfig().database),
  out: (text) => process.stdout.write(text),
};

function positiveCredits(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) {
    throw new InvalidArgumentError('a whole number of credits, at least 1');
  }
  return n;
}

/** Grants credits to the profile with this e-mail: a 'grant' ledger entry like any other. */
export async function grantCredits(
  database: DatabaseHandle,
  email: string,
  credits: number,
  note: string | null,
): Promise<{ profileId: string; email: string; balance: number; sameEmail: number }> {
  const [profile, ...others] = await findProfilesByEmail(database.db, email);
  if (!profile) {
    throw new Error(
      `No account with the e-mail ${email} has used Scrub yet. Accounts are created on their first signed-in call: sign in once (the dashboard, or \`scrub login\`), then grant again.`,
    );
  }
  const { balance } = await applyLedgerEntry(database.db, {
    profileId: profile.id,
    delta: credits,
    kind: 'grant',
    reference: 'scrub-server credits grant',
    note,
  });
  return { profileId: profile.id, email: profile.email, balance, sameEmail: others.length };
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
      const database = await io.open();
      try {
        await migrateToLatest(database.db);
        const granted = await grantCredits(database, email, amount, options.note ?? null);
        const which =
          granted.sameEmail > 0 ? ` (the newest of ${granted.sameEmail + 1} accounts with this e-mail)` : '';
        io.out(
          `Granted ${amount.toLocaleString('en-US')} credits to ${granted.email}${which}. Balance: ${granted.balance.toLocaleString('en-US')}.\n`,
        );
      } finally {
        await database.close();
      }
    });
  return credits;
}
