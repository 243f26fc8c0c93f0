import { sql } from 'kysely';
import { CognitoError, cognitoMessages as m } from './errors.js';
import { notAuthorized, type PoolContext } from './pool-context.js';

/**
 * Counters per key in a window: wrong passwords lock a user name for a while, and codes mailed to a
 * user are limited. Keys: `user:<sub>` and `name:<email>` (sign-in), `send:<sub>` (codes).
 */
export class Throttles {
  readonly #pool: PoolContext;

  constructor(pool: PoolContext) {
    this.#pool = pool;
  }

  async assertNotLocked(key: string): Promise<void> {
    const row = await this.#pool.db
      .selectFrom('identity_throttles')
      .select('locked_until')
      .where('key', '=', key)
      .executeTakeFirst();
    if (row?.locked_until && row.locked_until > this.#pool.now()) throw notAuthorized(m.attemptsExceeded);
  }

  async noteFailedPassword(key: string): Promise<void> {
    const { max, windowSeconds, lockSeconds } = this.#pool.tuning.signInFailures;
    const failures = await this.#bump(key, windowSeconds);
    if (failures >= max) {
      await this.#pool.db
        .updateTable('identity_throttles')
        .set({ locked_until: new Date(this.#pool.now().getTime() + lockSeconds * 1000), failures: 0 })
        .where('key', '=', key)
        .execute();
      this.#pool.log(
        { throttle: key },
        `sign-in locked for ${lockSeconds} s after ${failures} wrong passwords`,
      );
    }
  }

  async clear(key: string): Promise<void> {
    await this.#pool.db.deleteFrom('identity_throttles').where('key', '=', key).execute();
  }

  async countCodeSend(sub: string): Promise<void> {
    const { max, windowSeconds } = this.#pool.tuning.codeSends;
    if ((await this.#bump(`send:${sub}`, windowSeconds)) > max) {
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
