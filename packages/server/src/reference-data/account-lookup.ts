import { z } from 'zod';
import { findProfilesByEmail } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import type { LocalOperation } from '../local-control/local-control.js';

const FindAccountInput = z.object({ account: z.string().min(1).max(320) });
export type FindAccountInput = z.output<typeof FindAccountInput>;

export interface FoundAccount {
  /** The profile id: an internal list is named `internal:<id>`. */
  id: string;
  email: string;
  /** Other, older accounts with the same e-mail (the newest one was taken). */
  sameEmail: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The account an internal list is for, named by its e-mail (the newest account with it, as
 * `credits grant` does) or by its profile id: `data import internal --account ...`.
 */
export const findAccountOperation: LocalOperation<FindAccountInput, FoundAccount> = {
  method: 'GET',
  path: '/reference-data/account',
  input: FindAccountInput,
  async run(db, { account }) {
    if (account.includes('@')) {
      const [profile, ...others] = await findProfilesByEmail(db, account);
      if (profile) return { id: profile.id, email: profile.email, sameEmail: others.length };
      throw new ApiError(
        'not_found',
        `No account with the e-mail ${account} has used Scrub yet. Accounts are created on their first signed-in call: sign in once, then import again.`,
      );
    }
    const profile = UUID.test(account)
      ? await db.selectFrom('profiles').select(['id', 'email']).where('id', '=', account).executeTakeFirst()
      : undefined;
    if (profile) return { id: profile.id, email: profile.email, sameEmail: 0 };
    throw new ApiError('not_found', `No account has the id ${account}. Name the account by its e-mail.`);
  },
};
