import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { RateLimits } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { rateLimitRefusals } from '../metrics/service-metrics.js';
import type { PolicyState, RatePolicy, SharedRateLimiter } from './rate-limiter.js';

const WHO: Record<string, string> = {
  key: 'with this API key',
  account: 'for this account',
  address: 'from this address',
};

function per(policy: RatePolicy): string {
  const { windowSeconds: w } = policy;
  if (w === 1) return 'per second';
  if (w === 60) return 'per minute';
  if (w === 3600) return 'per hour';
  return `per ${w} seconds`;
}

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers): each policy once in
 * `RateLimit-Policy` (`"key";q=100;w=1`) and its current state in `RateLimit` (`"key";r=57;t=1`).
 */
export function rateLimitHeaders(states: PolicyState[]): Record<string, string> {
  return {
    'ratelimit-policy': states
      .map(({ policy }) => `"${policy.name}";q=${policy.max};w=${policy.windowSeconds}`)
      .join(', '),
    ratelimit: states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`).join(', '),
  };
}

/**
 * Where requests are counted: every request by its client address (before anything else runs),
 * then an authenticated one by its account and, when it came with the API key, by that key. A
 * refused request is answered 429 `rate_limited` with `Retry-After`, before any work is done.
 */
export class RateLimitGate {
  readonly #states = new WeakMap<FastifyRequest, PolicyState[]>();
  readonly #policies: { key?: RatePolicy; account?: RatePolicy; address?: RatePolicy };

  constructor(
    private readonly limiter: SharedRateLimiter,
    limits: RateLimits,
  ) {
    this.#policies = {
      ...(limits.perKey ? { key: { name: 'key', ...limits.perKey } } : {}),
      ...(limits.perAccount ? { account: { name: 'account', ...limits.perAccount } } : {}),
      ...(limits.perAddress ? { address: { name: 'address', ...limits.perAddress } } : {}),
    };
  }

  async admitAddress(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { address } = this.#policies;
    if (address) await this.#admit(request, reply, [{ policy: address, id: request.ip }]);
  }

  async admitPrincipal(request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<void> {
    const { key, account } = this.#policies;
    const requests: { policy: RatePolicy; id: string }[] = [];
    if (key && principal.via === 'api_key') requests.push({ policy: key, id: principal.profileId });
    if (account) requests.push({ policy: account, id: principal.profileId });
    if (requests.length > 0) await this.#admit(request, reply, requests);
  }

  async #admit(
    request: FastifyRequest,
    reply: FastifyReply,
    requests: { policy: RatePolicy; id: string }[],
  ): Promise<void> {
    const taken = await this.limiter.take(requests);
    const states = [...(this.#states.get(request) ?? []), ...taken];
    this.#states.set(request, states);
    const headers = rateLimitHeaders(states);
    reply.headers(headers);
    const refused = taken.filter((state) => !state.allowed);
    if (refused.length === 0) return;
    const wait = Math.max(...refused.map((state) => state.resetSeconds));
    const first = refused[0] as PolicyState;
    rateLimitRefusals.inc({ limit: first.policy.name });
    throw new ApiError(
      'rate_limited',
      `Too many requests: at most ${first.policy.max} ${per(first.policy)} ${WHO[first.policy.name] ?? ''}. Retry after ${wait} second${wait === 1 ? '' : 's'}.`,
      { headers: { ...headers, 'retry-after': String(wait) } },
    );
  }
}
