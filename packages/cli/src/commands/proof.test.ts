import { generateKeyPairSync, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../../test/harness.js';

// The proof verified and refused end to end: tests/e2e/src/proof.test.ts. Here: what never reaches a key.
describe('scrub proof verify: bad input', () => {
  const dir = tempConfigDir();
  const env = { SCRUB_CONFIG_DIR: dir, SCRUB_API_URL: 'http://127.0.0.1:9' };
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, '{"keys":[]}');

  it('refuses --keys with --keys-url (exit 2)', async () => {
    const proof = join(dir, 'a.jws');
    writeFileSync(proof, 'a.b.c\n');
    const result = await scrub(
      ['proof', 'verify', proof, '--keys', keys, '--keys-url', 'https://x.example/k'],
      env,
    );
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: --keys reads the keys from a file, --keys-url fetches them: give one, not both\n',
    });
  });

  it('says a file is not a proof (exit 1), and names a file it cannot read', async () => {
    const notProof = join(dir, 'notes.txt');
    writeFileSync(notProof, 'hello\n');
    const malformed = await scrub(['proof', 'verify', notProof, '--keys', keys], env);
    expect(malformed).toMatchObject({
      code: 1,
      stderr: 'error: Proof NOT valid: A proof is a compact JWS: three base64url parts separated by dots.\n',
    });
    const missing = await scrub(['proof', 'verify', join(dir, 'nope.jws'), '--keys', keys], env);
    expect(missing).toMatchObject({
      code: 1,
      stderr: `error: Cannot read the proof file ${join(dir, 'nope.jws')}: ENOENT\n`,
    });
  });
});

describe('scrub proof verify: what a job rests on', () => {
  const dir = tempConfigDir();
  const env = { SCRUB_CONFIG_DIR: dir, SCRUB_API_URL: 'http://127.0.0.1:9' };

  /** A statement signed here with a key of its own, as the service signs (EdDSA, Ed25519). */
  function signed(statement: Record<string, unknown>): { proof: string; keys: string } {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'EdDSA', use: 'sig' };
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'EdDSA', kid: 'k1', typ: 'scrub-proof+jws' })}.${part(statement)}`;
    const signature = sign(null, Buffer.from(input), privateKey).toString('base64url');
    const proof = join(dir, 'job.jws');
    const keys = join(dir, 'job-keys.json');
    writeFileSync(proof, `${input}.${signature}\n`);
    writeFileSync(keys, JSON.stringify({ keys: [jwk] }));
    return { proof, keys };
  }

  it('names the operator lists, the reassigned-number source, the line-type sources and the carrier lookups', async () => {
    const { proof, keys } = signed({
      iss: 'https://scrub.example',
      kid: 'k1',
      iat: 1_764_000_000,
      type: 'scrub.file',
      job_id: 'job-1',
      file_reference: 'ref',
      file_name: 'leads.csv',
      input: { sha256: 'a'.repeat(64), rows: 6 },
      result: { sha256: 'b'.repeat(64) },
      numbers_checked: 4,
      duplicates: 1,
      line_types: { mobile: 3, voip: 2, invalid: 1 },
      dnc_status: { clean: 0, dnc: 0, unchecked: 5 },
      account: { id: 'acct', email: 'ann@example.com' },
      datasets: { exchange: 'test-exchanges' },
      ftc_registry: null,
      checked_at: '2026-11-27T10:00:00.000Z',
      valid_until: null,
      operator_lists: [{ name: 'litigators', version: 'litigators-v1', released_on: '2026-11-01' }],
      reassigned_source: { provider: 'imported_disconnects', as_of: '2024-06-30' },
      line_type_sources: { carrier_lookup: 3, exchange: 2 },
      carrier_lookups: { provider: 'twilio', answered: 2, not_answered: 2 },
    });
    const result = await scrub(['proof', 'verify', proof, '--keys', keys], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Operator lists +litigators \(litigators-v1, released 2026-11-01\)/);
    expect(result.stdout).toMatch(/Reassigned numbers +imported_disconnects, as of 2024-06-30/);
    expect(result.stdout).toMatch(/Line types rest on +3 carrier_lookup, 2 exchange/);
    expect(result.stdout).toMatch(/Carrier lookups +twilio: 2 answered, 2 not answered/);
  });
});
