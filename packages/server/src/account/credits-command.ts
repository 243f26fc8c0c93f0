import { Command, InvalidArgumentError } from 'commander';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { loadConfig, type ServerConfig } from '../config.js';
import { ApiError } from '../http/api-error.js';
import { type LocalOperation, runLocalOperation } from '../local-control/local-control.js';
import { type DatabaseHandle, openDatabase } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import { applyLedgerEntry } from './ledger.js';
import { findProfilesByEmail } from './profiles.js';

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

const MAX_CREDITS = 2_147_483_647;

function positiveCredits(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > MAX_CREDITS) {
    throw new InvalidArgumentError('a whole number of credits, at least 1');
  }
  return n;
}

const GrantInput = z.object({
  email: z.string().min(1).max(320),
  credits: z.number().int().min(1).max(MAX_CREDITS),
  note: z.string().nullable().default(null),
});
export type GrantInput = z.output<typeof GrantInput>;

export interface GrantResult {
  profileId: string;
  email: string;
  /** The balance after the grant. */
  balance: number;
  /** Other, older accounts with the same e-mail (the newest one was credited). */
  sameEmail: number;
}

/** Grants credits to the profile with this e-mail: a 'grant' ledger entry like any other. */
export async function grantCredits(db: Kysely<Database>, input: GrantInput): Promise<GrantResult> {
  const [profile, ...others] = await findProfilesByEmail(db, input.email);
  if (!profile) {
    throw new ApiError(
      'not_found',
      `No account with the e-mail ${input.email} has used Scrub yet. Accounts are created on their first signed-in call: sign in once (the dashboard, or \`scrub login\`), then grant again.`,
    );
  }
  const { balance } = await applyLedgerEntry(db, {
    profileId: profile.id,
    delta: input.credits,
    kind: 'grant',
    reference: 'scrub-server credits grant',
    note: input.note,
  });
  return { profileId: profile.id, email: profile.email, balance, sameEmail: others.length };
}

/** `credits grant` as an operation: `POST /_local/credits/grant` while a server holds the embedded database. */
export const grantCreditsOperation: LocalOperation<GrantInput, GrantResult> = {
  method: 'POST',
  path: '/credits/grant',
  input: GrantInput,
  run: grantCredits,
};

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
