import { LRUCache } from 'lru-cache';
import { ApiError } from '../errors/api-error.js';

/** Asks the user pool whether a user is enabled (AdminGetUser's `Enabled`); null: not known there. */
export type PoolEnabledCheck = (sub: string) => Promise<boolean | null>;

/**
 * Whether the user pool itself has disabled an account (the Cognito console's "disable", or
 * AdminDisableUser on the built-in pool) behind the service's back: such an account is refused
 * everywhere, its ID tokens and API keys included. The answer is remembered for `ttlSeconds` (the
 * API key cache's time), so a client checking numbers one by one costs one cache look-up per call
 * and the pool one question per account per `ttlSeconds`. A pool that cannot be asked (no admin
 * credentials, an outage) is not held against anyone: the account counts as enabled for that time.
 */
export class PoolStanding {
  readonly #enabled: LRUCache<string, { enabled: boolean }> | null;

  constructor(
    private readonly check: PoolEnabledCheck | null,
    ttlSeconds: number,
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {
    this.#enabled = ttlSeconds > 0 ? new LRUCache({ max: 10_000, ttl: ttlSeconds * 1000 }) : null;
  }

  /** Throws `account_disabled` when the pool has disabled the user. */
  async assertEnabled(sub: string): Promise<void> {
    if (!(await this.#isEnabled(sub))) {
      throw new ApiError(
        'account_disabled',
        'This account has been disabled in the user pool. Contact support to restore it.',
      );
    }
  }

  async #isEnabled(sub: string): Promise<boolean> {
    if (!this.check) return true;
    const known = this.#enabled?.get(sub);
    if (known) return known.enabled;
    let enabled = true;
    try {
      enabled = (await this.check(sub)) !== false;
    } catch (error) {
      this.onFailure(error);
    }
    this.#enabled?.set(sub, { enabled });
    return enabled;
  }
}
