import { sql } from 'kysely';
import { CognitoError, cognitoMessages as m } from './errors.js';
import { notAuthorized, type PoolContext } from './pool-context.js';
import { emailKey } from './user-store.js';

/** Who is calling the pool: the client address the HTTP request came from. */
export interface PoolClient {
  address: string;
}

/** The throttle keys one sign-in attempt counts against, space-separated (as a challenge stores them). */
export type SignInKeys = string;

/**
 * Counters per key in a window. Wrong passwords make sign-in wait, doubling with each failure,
 * per user name from one address, per address and per user name from everywhere: somebody
 * guessing from one place cannot lock the owner out from another. Codes mailed to a user, and
 * sign-ups from one address, are limited too.
 */
export class Throttles {
  readonly #pool: PoolContext;

  constructor(pool: PoolContext) {
    this.#pool = pool;
  }

  /** The keys of a sign-in by this user (`user:<sub>`) or unknown name, from this client if known. */
  signInKeys(user: { sub: string } | undefined, username: string, client?: PoolClient): SignInKeys {
    const account = user ? `user:${user.sub}` : `name:${emailKey(username)}`;
    if (!client) return account;
    return [`pair:${account}@${client.address}`, `addr:${client.address}`, account].join(' ');
  }

  async assertNotLocked(keys: SignInKeys): Promise<void> {
    const locked = await this.#pool.db
      .selectFrom('identity_throttles')
      .select('key')
      .where('key', 'in', keys.split(' '))
      .where('locked_until', '>', this.#pool.now())
      .executeTakeFirst();
    if (locked) throw notAuthorized(m.attemptsExceeded);
  }

  async noteFailedPassword(keys: SignInKeys): Promise<void> {
    for (const key of keys.split(' ')) {
      const limit = this.#pool.tuning.signInFailures[kindOf(key, keys)];
      const failures = await this.#bump(key, limit.windowSeconds);
      if (failures < limit.max) continue;
      const delay = Math.min(limit.firstDelaySeconds * 2 ** (failures - limit.max), limit.maxDelaySeconds);
      await this.#pool.db
        .updateTable('identity_throttles')
        .set({ locked_until: new Date(this.#pool.now().getTime() + delay * 1000) })
        .where('key', '=', key)
        .execute();
      this.#pool.log({ throttle: key }, `sign-in waits ${delay} s after ${failures} wrong passwords`);
    }
  }

  /** After a right password: the name's counts start again; the address keeps its own. */
  async clearSignIn(keys: SignInKeys): Promise<void> {
    const cleared = keys.split(' ').filter((key) => !key.startsWith('addr:'));
    await this.#pool.db.deleteFrom('identity_throttles').where('key', 'in', cleared).execute();
  }

  /** A new password lifts every wait on the account, from every address. */
  async clearAccount(sub: string): Promise<void> {
    await this.#pool.db
      .deleteFrom('identity_throttles')
      .where((eb) => eb.or([eb('key', '=', `user:${sub}`), eb('key', 'like', `pair:user:${sub}@%`)]))
      .execute();
  }

  async countCodeSend(sub: string): Promise<void> {
    const { max, windowSeconds } = this.#pool.tuning.codeSends;
    if ((await this.#bump(`send:${sub}`, windowSeconds)) > max) {
      throw new CognitoError('LimitExceededException', m.sendLimitExceeded);
    }
  }

  /** Password-reset requests per name, known or not, so that both are answered alike. */
  async countResetRequest(username: string): Promise<void> {
    const { max, windowSeconds } = this.#pool.tuning.codeSends;
    if ((await this.#bump(`reset:${emailKey(username)}`, windowSeconds)) > max) {
      throw new CognitoError('LimitExceededException', m.sendLimitExceeded);
    }
  }

  /**
   * Confirmation-code resends per name, known or not, so that both are answered alike. The sign-up's
   * own code is the first of a user's `codeSends`: resends take the rest.
   */
  async countResendRequest(username: string): Promise<void> {
    const { max, windowSeconds } = this.#pool.tuning.codeSends;
    if ((await this.#bump(`resend:${emailKey(username)}`, windowSeconds)) > max - 1) {
      throw new CognitoError('LimitExceededException', m.sendLimitExceeded);
    }
  }

  async countSignUp(client: PoolClient | undefined): Promise<void> {
    const limit = this.#pool.tuning.signUps;
    if (!client || !limit) return;
    if ((await this.#bump(`signup:${client.address}`, limit.windowSeconds)) > limit.max) {
      this.#pool.log({ throttle: `signup:${client.address}` }, 'sign-up refused: too many from one address');
      throw new CognitoError('LimitExceededException', m.sendLimitExceeded);
    }
  }

  /** Adds one to a counter for a window; returns the count within the current window. */
  async #bump(key: string, windowSeconds: number): Promise<number> {
    const now = this.#pool.now();
    const windowStart = new Date(now.getTime() - windowSeconds * 1000);
    const row = await this.#pool.db
      .insertInto('identity_throttles')
      .values({ key, failures: 1, window_started_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`case when identity_throttles.window_started_at < ${windowStart} then 1 else identity_throttles.failures + 1 end`,
          window_started_at: sql`case when identity_throttles.window_started_at < ${windowStart} then ${now} else identity_throttles.window_started_at end`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    return row.failures;
  }
}

function kindOf(key: string, keys: SignInKeys): 'pair' | 'address' | 'account' {
  if (key.startsWith('pair:')) return 'pair';
  if (key.startsWith('addr:')) return 'address';
  // Without a client address (the TypeScript API) the name's own key is all there is: the pair's rule.
  return keys.includes(' ') ? 'account' : 'pair';
}
