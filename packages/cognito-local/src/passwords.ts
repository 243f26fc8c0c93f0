import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordLength } from '@scrub/contract';
import { CognitoError } from './errors.js';
import { COMMON_PASSWORDS } from './generated/common-passwords.js';

/**
 * What a password must be, as NIST SP 800-63B recommends: long enough, not too long to hash, and
 * not one of the most common passwords. Any Unicode characters; no rules about character classes.
 */
export interface PasswordPolicy {
  minimumLength: number;
  /** Refuse the passwords of the bundled list (generated/common-passwords.ts). */
  refuseCommon: boolean;
}

export const defaultPasswordPolicy: PasswordPolicy = {
  minimumLength: PASSWORD_MIN_LENGTH,
  refuseCommon: true,
};

const MAX_LENGTH = PASSWORD_MAX_LENGTH;
let common: Set<string> | undefined;

/** Compared as NFKC lower case, so `PassWord1` and a full-width `ｐａｓｓｗｏｒｄ` are found too. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS.split(' '));
  return common.has(password.normalize('NFKC').toLowerCase());
}

/** Every rule the password breaks, in words a person can act on; empty when it is acceptable. */
export function passwordProblems(password: string, policy: PasswordPolicy): string[] {
  const problems: string[] = [];
  const length = passwordLength(password);
  if (length < policy.minimumLength)
    problems.push(`Password not long enough: use at least ${policy.minimumLength} characters`);
  if (length > MAX_LENGTH) problems.push(`Password too long: use at most ${MAX_LENGTH} characters`);
  // Cognito refuses these too: a form that trims would otherwise set a password nobody can type back.
  if (/^\s|\s$/.test(password)) problems.push('Password must not begin or end with a space');
  if (policy.refuseCommon && isCommonPassword(password))
    problems.push('Password is too common: it is on a list of the most used passwords, choose another');
  return problems;
}

/** Throws InvalidPasswordException naming every broken rule, as Cognito words its first one. */
export function enforcePasswordPolicy(password: string, policy: PasswordPolicy): void {
  const problems = passwordProblems(password, policy);
  if (problems.length > 0) {
    throw new CognitoError(
      'InvalidPasswordException',
      `Password did not conform with policy: ${problems.join('; ')}`,
    );
  }
}

// 2^15 × 8 × 128 bytes = 32 MiB and some tens of milliseconds per hash: OWASP's scrypt floor, doubled.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS, KEY_LENGTH);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/** Hashed once, checked when the user does not exist, so that both answers take as long. */
const decoy = hashPassword(randomBytes(12).toString('hex'));

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? (await decoy)).split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem };
  const key = await derive(
    password.slice(0, MAX_LENGTH + 1),
    Buffer.from(salt, 'base64url'),
    options,
    expected.length,
  );
  return stored !== null && timingSafeEqual(key, expected);
}
