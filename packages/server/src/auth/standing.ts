import type { Kysely } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';

interface Standing {
  disabled_at: Date | null;
  tokens_valid_after: Date | null;
}

/**
 * Refuses a disabled account, and a token issued (`iat`, seconds) no later than the account's
 * `tokens_valid_after`: a password reset, a global sign-out or a disable ends every earlier token
 * at once, whichever identity provider issued it. A token of that very second is refused too: a
 * sign-in a moment too early must not survive the reset.
 */
export function assertInGoodStanding(account: Standing, issuedAt?: number): void {
  if (account.disabled_at) {
    throw new ApiError('account_disabled', 'This account has been disabled. Contact support to restore it.');
  }
  if (issuedAt === undefined || !account.tokens_valid_after) return;
  if (issuedAt <= Math.floor(account.tokens_valid_after.getTime() / 1000)) {
    throw new ApiError(
      'unauthorized',
      'This token was issued before the account was signed out or its password changed. Sign in again.',
    );
  }
}

/** Remembers the latest sign-in (`auth_time`) the account has shown; a write only when it is newer. */
export async function noteSignIn(
  db: Kysely<Database>,
  account: { id: string; last_sign_in_at: Date | null },
  authTime: number | undefined,
): Promise<void> {
  if (authTime === undefined) return;
  const at = new Date(authTime * 1000);
  if (account.last_sign_in_at && account.last_sign_in_at >= at) return;
  await db
    .updateTable('profiles')
    .set({ last_sign_in_at: at })
    .where('id', '=', account.id)
    .where((eb) => eb.or([eb('last_sign_in_at', 'is', null), eb('last_sign_in_at', '<', at)]))
    .execute();
}
