import type { Kysely } from 'kysely';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { SharedRateLimiter } from '../rate-limit/rate-limiter.js';
import type { Database } from '../storage/schema.js';

/**
 * Free test checks an account with an active subscription gets per day. The API page tests a number
 * now and then; past this the `test=1` flag is no way round the price, and checks are charged.
 */
export const FREE_TEST_CHECKS_PER_DAY = 50;
const FREE_TEST_CHECKS = { name: 'free-test-check', max: FREE_TEST_CHECKS_PER_DAY, windowSeconds: 86_400 };

/**
 * Seed 001: "Testing one number via the API page costs 1 credit unless the user has an active
 * subscription." The API page's test is `GET /verify` with `test=1`; it is free when the account's
 * subscription is active (STANDARD, POWER; ELITE is unlimited anyway), counted in the database
 * against `FREE_TEST_CHECKS_PER_DAY`. Any other test check costs what a check costs.
 */
export class TestChecks {
  readonly #limiter: SharedRateLimiter;

  constructor(private readonly db: Kysely<Database>) {
    this.#limiter = new SharedRateLimiter(new RateLimitStore(db));
  }

  /** Whether this test check of the account is free (and, when it is, counts it). */
  async isFree(profileId: string): Promise<boolean> {
    const profile = await this.db
      .selectFrom('profiles')
      .select(['subscription_id', 'subscription_status'])
      .where('id', '=', profileId)
      .executeTakeFirst();
    if (!profile || profile.subscription_id === null || profile.subscription_status !== 'active')
      return false;
    const [state] = await this.#limiter.take([{ policy: FREE_TEST_CHECKS, id: profileId }]);
    return state?.allowed === true;
  }
}
