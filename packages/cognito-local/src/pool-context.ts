import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { CognitoError } from './errors.js';
import { defaultPasswordPolicy, type PasswordPolicy } from './passwords.js';
import type { IdentityTables } from './schema.js';

/** Limits and lifetimes; every one has a default, tests shorten them. */
export interface PoolTuning {
  passwordPolicy: PasswordPolicy;
  signUpCodeTtlSeconds: number;
  resetCodeTtlSeconds: number;
  /** Wrong entries of one code before it stops working and a new one must be requested. */
  maxCodeAttempts: number;
  /** Codes e-mailed to one user (sign-up, resends, resets) per window. */
  codeSends: { max: number; windowSeconds: number };
  /**
   * Wrong passwords within a window before sign-in waits, per user name from one client address
   * (`pair`), per client address whatever the name (`address`), and per user name from everywhere
   * (`account`, high: only a spread-out attack reaches it). Past `max`, each further failure
   * doubles the wait, from `firstDelaySeconds` up to `maxDelaySeconds`.
   */
  signInFailures: Record<'pair' | 'address' | 'account', FailureLimit>;
  /** Sign-ups from one client address per window; null: no limit. */
  signUps: { max: number; windowSeconds: number } | null;
  srpChallengeTtlSeconds: number;
  /** How far the client's SRP TIMESTAMP may be from the server's clock. */
  srpClockSkewSeconds: number;
}

export interface FailureLimit {
  max: number;
  windowSeconds: number;
  firstDelaySeconds: number;
  maxDelaySeconds: number;
}

const failures = (max: number, windowSeconds: number): FailureLimit => ({
  max,
  windowSeconds,
  firstDelaySeconds: 30,
  maxDelaySeconds: 15 * 60,
});

export const defaultTuning: PoolTuning = {
  passwordPolicy: defaultPasswordPolicy,
  signUpCodeTtlSeconds: 24 * 3600,
  resetCodeTtlSeconds: 3600,
  maxCodeAttempts: 5,
  codeSends: { max: 5, windowSeconds: 15 * 60 },
  signInFailures: {
    pair: failures(5, 15 * 60),
    address: failures(20, 15 * 60),
    account: failures(100, 3600),
  },
  signUps: { max: 20, windowSeconds: 3600 },
  srpChallengeTtlSeconds: 180,
  srpClockSkewSeconds: 300,
};

/** What the pool's parts (sign-in, codes, throttles, users, admin) share. */
export interface PoolContext {
  db: Kysely<IdentityTables>;
  tuning: PoolTuning;
  /** The pool's clock (tests move it). */
  now: () => Date;
  /** The part of the pool id after `_`: it salts every SRP verifier. */
  poolName: string;
  /** An HMAC of the label under the pool's secret: values stable per label that reveal nothing. */
  derive(label: string): Buffer;
  log(fields: object, message: string): void;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const notAuthorized = (message: string) => new CognitoError('NotAuthorizedException', message);

export function required(parameters: Record<string, string>, name: string): string {
  const value = parameters[name];
  if (typeof value !== 'string' || value === '') {
    throw new CognitoError('InvalidParameterException', `Missing required parameter ${name}`);
  }
  return value;
}
