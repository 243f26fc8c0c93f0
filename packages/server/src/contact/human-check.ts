import { randomBytes } from 'node:crypto';
import type { ContactChallenge } from '@scrub/contract';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { Database } from '../storage/schema.js';

/** How long a challenge may be solved and sent in. */
export const CHALLENGE_TTL_SECONDS = 600;
/**
 * The work a challenge asks: the solver tries counters from 0 until it meets the random one the
 * challenge was made with, up to this many SHA-256 hashes (about a second in a browser, half on average).
 */
export const MAX_COUNTER = 100_000;

const refused = (message: string) =>
  new ApiError('validation_failed', `Invalid request: body field "altcha": ${message}`, {
    issues: [{ location: 'body', path: 'altcha', message }],
  });

interface Payload {
  challenge: ContactChallenge;
  solution: { counter: number; derivedKey: string };
}

function decode(altcha: string): Payload | null {
  try {
    const payload = JSON.parse(Buffer.from(altcha, 'base64').toString('utf8')) as Payload;
    const { challenge, solution } = payload;
    if (typeof challenge?.signature !== 'string' || typeof challenge.parameters !== 'object') return null;
    if (typeof solution?.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
    return payload;
  } catch {
    return null;
  }
}

/**
 * The Contact form's human check: a self-hosted ALTCHA proof-of-work challenge, signed with the
 * service's key, which expires, and which counts once. Used challenges are remembered in the
 * database's rate-limit windows (one bucket per challenge, kept until it expires), so a challenge
 * solved once cannot be replayed on this process or any other.
 */
export class HumanCheck {
  readonly #key: string;
  readonly #uses: RateLimitStore;

  constructor(
    db: Kysely<Database>,
    /** SCRUB_CAPTCHA_HMAC_KEY; null makes one for this process's life. */
    key: string | null,
    private readonly now: () => number = Date.now,
  ) {
    this.#key = key ?? randomBytes(32).toString('hex');
    this.#uses = new RateLimitStore(db, now);
  }

  /** A new challenge, valid for `CHALLENGE_TTL_SECONDS`. */
  async challenge(): Promise<ContactChallenge> {
    const challenge = await createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(MAX_COUNTER),
      deriveKey,
      expiresAt: Math.floor(this.now() / 1000) + CHALLENGE_TTL_SECONDS,
      hmacSignatureSecret: this.#key,
      hmacKeySignatureSecret: this.#key,
    });
    return challenge as ContactChallenge;
  }

  /** Throws a 400 naming `altcha` unless it is a solution of this service's challenge, in time, never used before. */
  async verify(altcha: string): Promise<void> {
    const payload = decode(altcha);
    if (!payload)
      throw refused('is not a solved human check: solve GET /contact/challenge and send its payload');
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: this.#key,
      hmacKeySignatureSecret: this.#key,
    });
    if (result.expired) throw refused('the human check expired: take a new one and send again');
    if (!result.verified) throw refused('the human check failed: take a new one and send again');
    const expiresAt = (payload.challenge.parameters.expiresAt ?? 0) * 1000;
    const bucket = `human-check:${payload.challenge.signature}`;
    const counts = await this.#uses.claim([
      { bucket, windowStart: new Date(0), windowEnd: new Date(expiresAt), units: 1 },
    ]);
    if ((counts.get(bucket) ?? 0) > 1) throw refused('this human check was already used: take a new one');
  }
}
