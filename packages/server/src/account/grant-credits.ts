import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import type { LocalOperation } from '../local-control/local-control.js';
import type { Database } from '../storage/schema.js';
import { applyLedgerEntry } from './ledger.js';
import { findProfilesByEmail } from './profiles.js';

/** The most one grant may add: the ledger's amounts are 32-bit integers. */
export const MAX_CREDITS = 2_147_483_647;

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
