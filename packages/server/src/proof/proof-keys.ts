import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculateJwkThumbprint, type JSONWebKeySet, type JWK } from 'jose';
import { ConfigError } from '../errors/config-error.js';

/** The key proofs are signed with now, and the public keys of every key they were ever signed with. */
export interface ProofKeys {
  kid: string;
  privateKey: KeyObject;
  /** The current key first, then the retired ones, so proofs signed before a rotation still verify. */
  jwks: JSONWebKeySet;
}

/** Where the embedded setup keeps its keys: `<data dir>/proof/keys.json`, mode 0600. */
interface StoredKeys {
  /** Private JWKs, the current one first. */
  keys: JWK[];
}

const FILE = 'keys.json';

/** A signing key or retired key list that cannot be used: a setting to fix, refused at start (exit 2). */
export class ProofKeyError extends ConfigError {
  override name = 'ProofKeyError';
}

/** An Ed25519 private key from a PEM (PKCS #8) or a JWK (JSON); anything else is refused by name. */
export function readPrivateKey(text: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    const trimmed = text.trim();
    key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed) as JWK & { kty: string }, format: 'jwk' })
      : createPrivateKey(trimmed);
  } catch (error) {
    throw new ProofKeyError(`${where} is not a private key (PEM or JWK): ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ProofKeyError(
      `${where} is an ${key.asymmetricKeyType} key; proofs are signed with Ed25519 keys`,
    );
  }
  return key;
}

async function publicJwk(key: KeyObject): Promise<JWK & { kid: string }> {
  const { kty, crv, x } = createPublicKey(key).export({ format: 'jwk' }) as JWK;
  const jwk = { kty, crv, x };
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'EdDSA', use: 'sig' };
}

/** The public keys retired keys' proofs verify with: a JWKS (`{"keys":[...]}`), as the service published it. */
function readRetired(text: string | null): JWK[] {
  if (text === null || text.trim() === '') return [];
  try {
    const parsed = JSON.parse(text) as JSONWebKeySet | JWK[];
    const keys = Array.isArray(parsed) ? parsed : parsed.keys;
    if (!Array.isArray(keys)) throw new Error('it has no "keys" list');
    return keys.map((key) => {
      if (key.kty !== 'OKP' || key.crv !== 'Ed25519' || !key.x || !key.kid) {
        throw new Error('each key must be an Ed25519 public JWK with its kid');
      }
      const { kty, crv, x, kid } = key;
      return { kty, crv, x, kid, alg: 'EdDSA', use: 'sig' };
    });
  } catch (error) {
    throw new ProofKeyError(`SCRUB_PROOF_RETIRED_KEYS is not a JWKS: ${(error as Error).message}`);
  }
}

async function toProofKeys(privateKeys: KeyObject[], retired: JWK[]): Promise<ProofKeys> {
  const [current] = privateKeys;
  if (!current) throw new ProofKeyError('No proof signing key');
  const published = await Promise.all(privateKeys.map(publicJwk));
  const seen = new Set(published.map((key) => key.kid));
  const keys = [...published, ...retired.filter((key) => !seen.has(key.kid as string))];
  return { kid: published[0]!.kid, privateKey: current, jwks: { keys } };
}

const newKey = () => generateKeyPairSync('ed25519').privateKey;
const stored = (keys: KeyObject[]): StoredKeys => ({
  keys: keys.map((key) => key.export({ format: 'jwk' })),
});

function readStored(path: string): KeyObject[] | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ProofKeyError(`Cannot read the proof signing keys in ${path}: ${(error as Error).message}`);
  }
  const { keys } = JSON.parse(text) as StoredKeys;
  return keys.map((key, index) => readPrivateKey(JSON.stringify(key), `${path}, key ${index + 1}`));
}

export interface ProofKeySettings {
  /** SCRUB_PROOF_SIGNING_KEY: the key to sign with (production); null keeps one in the data directory. */
  signingKey: string | null;
  /** SCRUB_PROOF_RETIRED_KEYS: public keys of keys no longer used, still published. */
  retiredKeys: string | null;
}

/**
 * The configured key, or the one kept in `dir/keys.json` (made on first start, created exclusively
 * with mode 0600 so that two processes starting at once end up with the same key). `dir` null keeps
 * a fresh key in memory (in-memory databases in tests).
 */
export async function loadProofKeys(settings: ProofKeySettings, dir: string | null): Promise<ProofKeys> {
  const retired = readRetired(settings.retiredKeys);
  if (settings.signingKey !== null) {
    return toProofKeys([readPrivateKey(settings.signingKey, 'SCRUB_PROOF_SIGNING_KEY')], retired);
  }
  if (dir === null) return toProofKeys([newKey()], retired);
  const path = join(dir, FILE);
  const existing = readStored(path);
  if (existing) return toProofKeys(existing, retired);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fresh = [newKey()];
  try {
    writeFileSync(path, `${JSON.stringify(stored(fresh))}\n`, { flag: 'wx', mode: 0o600 });
    return toProofKeys(fresh, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return toProofKeys(readStored(path) ?? fresh, retired);
  }
}

/**
 * Puts a new signing key in front of the embedded setup's keys (`scrub-server proof rotate-key`);
 * the old ones stay listed, so the proofs they signed still verify. Running servers pick it up on
 * restart. Returns the new key's id.
 */
export async function rotateProofKey(dir: string): Promise<string> {
  const path = join(dir, FILE);
  const keys = [newKey(), ...(readStored(path) ?? [])];
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(stored(keys))}\n`, { mode: 0o600 });
  return (await publicJwk(keys[0]!)).kid;
}
