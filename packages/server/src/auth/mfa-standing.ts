import { LRUCache } from 'lru-cache';
import { ApiError } from '../errors/api-error.js';

/** Asks the user pool whether sign-in asks a user for an authenticator code (AdminGetUser's `UserMFASettingList`). */
export type AuthenticatorCheck = (sub: string) => Promise<boolean | null>;

/**
 * `SCRUB_REQUIRE_MFA_FOR=admin`: the admin area refuses an admin whose account has no second
 * factor. The pool is the authority, not a token claim: Amazon Cognito's ID tokens carry no `amr`,
 * but AdminGetUser says whether sign-in asks the user for a code, and a user pool with MFA set to
 * "optional" asks every user who enrolled. The built-in pool answers the same question the same way
 * (and sends an admin without one to enrol at sign-in, MFA_SETUP). A yes is remembered for
 * `ttlSeconds`; a no is asked again each time, so enrolment counts at once. A pool that cannot be
 * asked refuses (503): this is a lock, and a lock that opens on an outage is none.
 */
export class MfaStanding {
  readonly #enrolled: LRUCache<string, true> | null;

  constructor(
    private readonly check: AuthenticatorCheck,
    ttlSeconds: number,
  ) {
    this.#enrolled = ttlSeconds > 0 ? new LRUCache({ max: 10_000, ttl: ttlSeconds * 1000 }) : null;
  }

  async assertEnrolled(sub: string): Promise<void> {
    if (this.#enrolled?.get(sub)) return;
    let enrolled: boolean | null;
    try {
      enrolled = await this.check(sub);
    } catch {
      throw new ApiError(
        'service_unavailable',
        'Could not ask the user pool whether this account uses a second factor. Try again shortly.',
      );
    }
    if (enrolled !== true) {
      throw new ApiError(
        'mfa_required',
        'Admins must sign in with a second factor: set up an authenticator app on your account page, then sign in again.',
      );
    }
    this.#enrolled?.set(sub, true);
  }
}
