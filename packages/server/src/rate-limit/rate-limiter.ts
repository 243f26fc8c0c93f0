import type { RateLimit } from '../config/config.js';
import type { Claim, RateLimitStore } from './rate-limit-store.js';

/** A named limit (`key`, `account`, `address`), as the RateLimit-Policy header names it. */
export interface RatePolicy extends RateLimit {
  name: string;
}

/** One policy's state after a request: what is left and when the window ends. */
export interface PolicyState {
  policy: RatePolicy;
  allowed: boolean;
  /** Requests still available in this window (approximate across processes). */
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

interface Lease {
  windowStart: number;
  windowEnd: number;
  /** Units this process holds and has not used yet. */
  left: number;
  /** The shared count when the lease was claimed. */
  counted: number;
}

/** Leases are dropped once their windows ended, when there are this many. */
const MAX_LEASES = 10_000;

/**
 * Fixed-window limits shared through the database. A process claims units in small leases (a
 * tenth of the limit) and hands them out from memory, so a busy key costs a database round trip
 * every few requests rather than every one. The total handed out in a window never passes the
 * limit; units a process leased but did not use are lost to the others until the window ends.
 */
export class SharedRateLimiter {
  readonly #leases = new Map<string, Lease>();
  /** Claims under way, by bucket: requests for the same bucket wait for them and use their lease. */
  readonly #claiming = new Map<string, Promise<void>>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one request from each bucket; a request refused by any policy is refused. */
  async take(requests: { policy: RatePolicy; id: string }[]): Promise<PolicyState[]> {
    // A burst of requests for one bucket claims one lease, not one each: wait for a claim under way
    // (and loop, as another may start meanwhile). From here to registering our own claim nothing
    // awaits, so the requests after us see it.
    const buckets = requests.map(({ policy, id }) => `${policy.name}:${id}`);
    for (;;) {
      const waits = buckets.flatMap((bucket) => this.#claiming.get(bucket) ?? []);
      if (waits.length === 0) break;
      await Promise.all(waits);
    }
    const now = this.now();
    const states: PolicyState[] = [];
    const claims: (Claim & { index: number; policy: RatePolicy })[] = [];
    for (const { policy, id } of requests) {
      const windowMs = policy.windowSeconds * 1000;
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
      const bucket = `${policy.name}:${id}`;
      const lease = this.#leases.get(bucket);
      if (lease && lease.windowStart === windowStart && (lease.left > 0 || lease.counted >= policy.max)) {
        const allowed = lease.left > 0;
        if (allowed) lease.left--;
        states.push({ policy, allowed, remaining: this.#remaining(policy, lease), resetSeconds });
        continue;
      }
      claims.push({
        index: states.length,
        policy,
        bucket,
        windowStart: new Date(windowStart),
        windowEnd: new Date(windowStart + windowMs),
        units: Math.max(1, Math.floor(policy.max / 10)),
      });
      states.push({ policy, allowed: false, remaining: 0, resetSeconds });
    }
    if (claims.length > 0) {
      const claiming = this.#claim(claims, states, now);
      const settled = claiming.then(
        () => {},
        () => {},
      );
      for (const { bucket } of claims) this.#claiming.set(bucket, settled);
      try {
        await claiming;
      } finally {
        for (const { bucket } of claims)
          if (this.#claiming.get(bucket) === settled) this.#claiming.delete(bucket);
      }
    }
    return states;
  }

  async #claim(
    claims: (Claim & { index: number; policy: RatePolicy })[],
    states: PolicyState[],
    now: number,
  ): Promise<void> {
    const counts = await this.store.claim(claims);
    if (this.#leases.size > MAX_LEASES) this.#forgetEnded(now);
    for (const claim of claims) {
      const counted = counts.get(claim.bucket) ?? Number.MAX_SAFE_INTEGER;
      const before = counted - claim.units;
      const granted = Math.max(0, Math.min(claim.units, claim.policy.max - before));
      const lease = {
        windowStart: claim.windowStart.getTime(),
        windowEnd: claim.windowEnd.getTime(),
        left: Math.max(0, granted - 1),
        counted,
      };
      this.#leases.set(claim.bucket, lease);
      const state = states[claim.index];
      if (state) {
        state.allowed = granted > 0;
        state.remaining = this.#remaining(claim.policy, lease);
      }
    }
  }

  #remaining(policy: RatePolicy, lease: Lease): number {
    return Math.max(0, policy.max - lease.counted) + lease.left;
  }

  #forgetEnded(now: number): void {
    for (const [bucket, lease] of this.#leases) {
      if (lease.windowEnd <= now) this.#leases.delete(bucket);
    }
  }
}
