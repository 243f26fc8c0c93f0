import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import type { FileProofStatement, ProofKeySet } from '@scrub/contract';
import { describe, expect, it } from 'vitest';
import { ProofVerificationError, verifyProof } from './proof.js';

const INPUT = new TextEncoder().encode('Name,Phone\nAnn,201-234-0001\n');
const RESULT = new TextEncoder().encode('Name,Phone,Line Type,DNC\nAnn,201-234-0001,mobile,0\n');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const jwk = publicKey.export({ format: 'jwk' });
const KEYS: ProofKeySet = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: 'key-1', alg: 'EdDSA' }] };

const STATEMENT: FileProofStatement = {
  type: 'scrub.file',
  iss: 'https://scrub.example',
  kid: 'key-1',
  iat: 1_795_000_000,
  job_id: 'job-1',
  file_reference: 'ref',
  file_name: 'leads.csv',
  input: { sha256: sha256(INPUT), rows: 1 },
  result: { sha256: sha256(RESULT) },
  numbers_checked: 1,
  duplicates: 0,
  line_types: { mobile: 1 },
  dnc_status: { clean: 1, dnc: 0, unchecked: 0 },
  account: { id: 'acct', email: 'pat@example.com' },
  datasets: { exchange: 'x', 'dnc:federal': '2026-11-20' },
  ftc_registry: { version: '2026-11-20', release_date: '2026-11-20' },
  checked_at: '2026-11-25T10:00:00.000Z',
  valid_until: '2026-12-21T00:00:00.000Z',
};

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS as the service makes one: EdDSA over `header.payload`. */
function signed(
  statement: unknown = STATEMENT,
  header: unknown = { alg: 'EdDSA', kid: 'key-1', typ: 'scrub-proof+jws' },
) {
  const input = `${b64(header)}.${b64(statement)}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProofVerificationError);
  return error as ProofVerificationError;
}

describe('verifyProof', () => {
  it('answers the statement when the signature and both files match', async () => {
    const proof = await verifyProof(signed(), {
      keys: KEYS,
      input: INPUT,
      result: { sha256: sha256(RESULT) },
    });
    expect(proof).toEqual({ statement: STATEMENT, kid: 'key-1', checked: { input: true, result: true } });
  });

  it('refuses a statement changed after signing', async () => {
    const [header, , signature] = signed().split('.');
    const forged = `${header}.${b64({ ...STATEMENT, numbers_checked: 2 })}.${signature}`;
    const error = await failure(verifyProof(forged, { keys: KEYS }));
    expect(error.code).toBe('bad_signature');
    expect(error.message).toMatch(/changed after it was signed/);
  });

  it('names the file that does not match, with both hashes', async () => {
    const changed = RESULT.slice();
    changed[changed.length - 2] = 0x31;
    const error = await failure(verifyProof(signed(), { keys: KEYS, input: INPUT, result: changed }));
    expect(error.code).toBe('result_mismatch');
    expect(error.message).toContain(sha256(changed));
    expect(error.message).toContain(STATEMENT.result.sha256);
  });

  it('refuses a key it was not given, and what is not a proof', async () => {
    const other = { keys: [{ ...KEYS.keys[0]!, kid: 'key-2' }] };
    expect((await failure(verifyProof(signed(), { keys: other }))).code).toBe('unknown_key');
    expect((await failure(verifyProof('not.a-proof', { keys: KEYS }))).code).toBe('malformed');
    const jwt = signed(STATEMENT, { alg: 'EdDSA', kid: 'key-1', typ: 'JWT' });
    expect((await failure(verifyProof(jwt, { keys: KEYS }))).code).toBe('malformed');
  });
});
