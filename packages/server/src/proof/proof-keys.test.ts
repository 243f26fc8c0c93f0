import { generateKeyPairSync } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { loadProofKeys, rotateProofKey } from './proof-keys.js';

const none = { signingKey: null, retiredKeys: null };

describe('proof signing keys', () => {
  it('makes one key in the data directory, owner-only, and rotation keeps the old one published', async () => {
    const dir = tempDir();
    const first = await loadProofKeys(none, dir);
    expect(statSync(join(dir, 'keys.json')).mode & 0o777).toBe(0o600);
    expect((await loadProofKeys(none, dir)).kid).toBe(first.kid);
    const kid = await rotateProofKey(dir);
    const after = await loadProofKeys(none, dir);
    expect(after.kid).toBe(kid);
    expect(after.jwks.keys.map((key) => key.kid)).toEqual([kid, first.kid]);
    expect(after.jwks.keys.every((key) => key.d === undefined)).toBe(true);
  });

  it('signs with the configured key, as a PEM or a JWK, and lists the retired keys after it', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const fromPem = await loadProofKeys(
      { signingKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), retiredKeys: null },
      null,
    );
    const fromJwk = await loadProofKeys(
      {
        signingKey: JSON.stringify(privateKey.export({ format: 'jwk' })),
        retiredKeys: JSON.stringify(fromPem.jwks),
      },
      null,
    );
    expect(fromJwk.kid).toBe(fromPem.kid);
    const retired = await loadProofKeys(
      { signingKey: null, retiredKeys: JSON.stringify(fromPem.jwks) },
      null,
    );
    expect(retired.jwks.keys.map((key) => key.kid)).toEqual([retired.kid, fromPem.kid]);
  });

  it('refuses keys it cannot sign with, naming the setting', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    });
    await expect(loadProofKeys({ signingKey: rsa.toString(), retiredKeys: null }, null)).rejects.toThrow(
      'SCRUB_PROOF_SIGNING_KEY is an rsa key; proofs are signed with Ed25519 keys',
    );
    await expect(loadProofKeys({ signingKey: 'not a key', retiredKeys: null }, null)).rejects.toThrow(
      /^SCRUB_PROOF_SIGNING_KEY is not a private key \(PEM or JWK\)/,
    );
    await expect(
      loadProofKeys({ signingKey: null, retiredKeys: '{"keys":[{"kty":"RSA"}]}' }, null),
    ).rejects.toThrow(
      'SCRUB_PROOF_RETIRED_KEYS is not a JWKS: each key must be an Ed25519 public JWK with its kid',
    );
  });
});
