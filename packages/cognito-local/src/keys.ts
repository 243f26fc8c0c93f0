import { randomBytes, type webcrypto } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
} from 'jose';

/** The pool's signing key and a secret for the values it derives (simulated answers, code hashes). */
export interface PoolKeys {
  kid: string;
  privateKey: webcrypto.CryptoKey;
  /** The public half as published in the JWKS. */
  jwks: JSONWebKeySet;
  secret: Buffer;
}

interface StoredKeys {
  kid: string;
  privateJwk: JWK;
  secret: string;
}

const FILE = 'keys.json';

async function generate(): Promise<StoredKeys> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(privateJwk);
  return { kid, privateJwk, secret: randomBytes(32).toString('base64url') };
}

async function toPoolKeys(stored: StoredKeys): Promise<PoolKeys> {
  const privateKey = (await importJWK(stored.privateJwk, 'RS256')) as webcrypto.CryptoKey;
  const { kty, n, e } = stored.privateJwk;
  return {
    kid: stored.kid,
    privateKey,
    jwks: { keys: [{ kty, n, e, kid: stored.kid, alg: 'RS256', use: 'sig' }] },
    secret: Buffer.from(stored.secret, 'base64url'),
  };
}

/**
 * Reads the pool's keys from `dir/keys.json`, or makes them on first start. The file is created
 * exclusively with mode 0600: two processes starting at once end up with the same keys, and only
 * this user can read the private key. `dir` null keeps fresh keys in memory (in-memory databases,
 * whose users and sessions vanish with the process anyway).
 */
export async function loadOrCreateKeys(dir: string | null): Promise<PoolKeys> {
  if (!dir) return toPoolKeys(await generate());
  const path = join(dir, FILE);
  try {
    return await toPoolKeys(JSON.parse(readFileSync(path, 'utf8')) as StoredKeys);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`Cannot read the identity signing keys in ${path}: ${(error as Error).message}`);
    }
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fresh = await generate();
  try {
    writeFileSync(path, `${JSON.stringify(fresh)}\n`, { flag: 'wx', mode: 0o600 });
    return toPoolKeys(fresh);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return toPoolKeys(JSON.parse(readFileSync(path, 'utf8')) as StoredKeys);
  }
}
