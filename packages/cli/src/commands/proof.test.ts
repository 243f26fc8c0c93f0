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
