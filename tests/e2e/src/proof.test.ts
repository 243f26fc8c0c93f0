import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ProofKeySet, verifyProof } from '@scrub/sdk';
import { fullListText } from '@scrub/test-fixtures/dnc';
import { describe, expect, it } from 'vitest';
import { type RunResult, scrub, scrubServer, startServer, tempDir } from './harness.js';

const email = 'proof@example.com';
const password = 'Correct-Horse-9';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function succeeded(result: RunResult, what: string): RunResult {
  if (result.code !== 0) {
    throw new Error(`${what} exited ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return result;
}

describe('proof of scrub, on the built binaries', () => {
  // One story: a registry import, an account, a bulk job, its proof, and a tampered result.
  it('scrub proof saves a signed statement that scrub proof verify accepts and refuses once a byte changes; /verify signs on request; old proofs survive a key rotation', async () => {
    const dataDir = tempDir('data-');
    const work = tempDir('work-');
    // The operator imports the federal registry, released yesterday, before starting.
    const released = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const validUntil = new Date(Date.parse(`${released}T00:00:00Z`) + 31 * 86_400_000).toISOString();
    const registry = join(work, 'dnc-full.txt');
    writeFileSync(registry, fullListText([2012340002, 2012340003]));
    succeeded(
      await scrubServer(
        ['data', 'import', 'ftc', registry, '--version', released, '--released', released],
        dataDir,
      ),
      'scrub-server data import ftc',
    );
    const server = await startServer(dataDir);
    const config = tempDir('config-');
    const cli = (args: string[], input?: string) =>
      scrub([...args, '--api-url', server.url], config, input === undefined ? {} : { input });

    succeeded(
      await cli(['signup', '--email', email, '--name', 'Pro Of', '--password-stdin'], `${password}\n`),
      'scrub signup',
    );
    const mail = succeeded(
      await scrubServer(['mail', '--to', email, '--last'], dataDir),
      'scrub-server mail',
    );
    const code = /Your Scrub verification code: (\d{6})/.exec(mail.stdout)?.[1] ?? '';
    succeeded(await cli(['confirm', '--email', email, '--code', code]), 'scrub confirm');
    succeeded(await cli(['login', '--email', email, '--password-stdin'], `${password}\n`), 'scrub login');
    succeeded(await scrubServer(['credits', 'grant', email, '100'], dataDir), 'scrub-server credits grant');

    const leads = join(work, 'leads.csv');
    writeFileSync(leads, 'Name,Phone\nAnn,201-234-0001\nBob,201-234-0002\nCid,(201) 234-0003\n');
    const scrubbed = join(work, 'scrubbed.csv');
    const bulk = succeeded(
      await cli(['--json', 'bulk', leads, '--phone-col', 'Phone', '--wait', '--yes', '-o', scrubbed]),
      'scrub bulk',
    );
    const reference = (JSON.parse(bulk.stdout) as { file_reference: string }).file_reference;

    const proofFile = join(work, 'leads.proof.jws');
    const saved = succeeded(await cli(['proof', reference, '-o', proofFile]), 'scrub proof');
    expect(saved.stderr).toContain(`saved to ${proofFile}`);
    expect(readFileSync(proofFile, 'utf8')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);

    // Offline: the keys saved once from the well-known URL, no API needed to verify.
    const keys = join(work, 'keys.json');
    writeFileSync(keys, await (await fetch(`${server.url}/.well-known/scrub-proof-keys.json`)).text());
    const offline = ['--api-url', 'http://127.0.0.1:9'];
    const verify = (args: string[]) =>
      scrub(['proof', 'verify', proofFile, '--keys', keys, ...args, ...offline], config);

    const ok = succeeded(await verify(['--input', leads, '--result', scrubbed]), 'scrub proof verify');
    expect(ok.stdout).toContain("Proof valid: the signature is the service's.");
    expect(ok.stdout).toMatch(/^File +leads\.csv/m);
    expect(ok.stdout).toMatch(new RegExp(`^FTC registry +${released}$`, 'm'));
    expect(ok.stdout).toMatch(new RegExp(`^Valid until +${validUntil.replaceAll('.', '\\.')}$`, 'm'));
    expect(ok.stdout).toMatch(/^DNC +\d+ clean, 2 DNC, 0 unchecked$/m);
    expect(ok.stdout).toMatch(/^Uploaded file +matches the proof$/m);
    expect(ok.stdout).toMatch(/^Result file +matches the proof$/m);

    const json = JSON.parse(
      succeeded(
        await scrub(
          ['--json', 'proof', 'verify', proofFile, '--keys', keys, '--result', scrubbed, ...offline],
          config,
        ),
        'scrub --json proof verify',
      ).stdout,
    );
    expect(json).toMatchObject({ valid: true, checked: { input: false, result: true } });
    expect(json.statement.result.sha256).toBe(sha256(readFileSync(scrubbed)));

    const signedProof = readFileSync(proofFile, 'utf8');
    // One byte of the result changed: exit 1, naming the file and both hashes.
    const bytes = readFileSync(scrubbed);
    const at = bytes.lastIndexOf(Buffer.from('0'));
    bytes[at] = '1'.charCodeAt(0);
    writeFileSync(scrubbed, bytes);
    const tampered = await verify(['--input', leads, '--result', scrubbed]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toBe('');
    expect(tampered.stderr).toContain('Proof NOT valid: The result file does not match the proof');
    expect(tampered.stderr).toContain(sha256(bytes));

    // A statement edited by hand no longer carries the service's signature.
    const [header, payload, signature] = readFileSync(proofFile, 'utf8').trim().split('.');
    const statement = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const edited = Buffer.from(
      JSON.stringify({ ...statement, valid_until: '2027-12-31T00:00:00.000Z' }),
    ).toString('base64url');
    writeFileSync(proofFile, `${header}.${edited}.${signature}\n`);
    const forged = await verify([]);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain('Proof NOT valid: The signature does not match');

    // One /verify answer, signed on request, for the one credit the answer costs.
    const key = succeeded(await cli(['key', 'rotate', '--yes']), 'scrub key rotate').stdout.trim();
    const answer = (await (
      await fetch(`${server.url}/verify?p=2012340002&proof=1`, { headers: { 'x-api-key': key } })
    ).json()) as { proof: string };
    expect(answer).toMatchObject({ dnc: 1, credits_deducted: 1 });
    const published = JSON.parse(readFileSync(keys, 'utf8')) as ProofKeySet;
    expect((await verifyProof(answer.proof, { keys: published })).statement).toMatchObject({
      type: 'scrub.verify',
      phone_number: '+12012340002',
      dnc: 1,
      ftc_registry: { release_date: released },
    });
    expect(await server.stop()).toEqual({ code: 0, signal: null });

    // The operator rotates the key: new proofs carry the new key, and the old proof still verifies
    // against the keys the service publishes.
    const rotated = succeeded(
      await scrubServer(['proof-key', 'rotate'], dataDir),
      'scrub-server proof-key rotate',
    );
    expect(rotated.stdout).toMatch(/^New proof signing key \S+\. Restart scrub-server/);
    const restarted = await startServer(dataDir);
    writeFileSync(proofFile, signedProof);
    const old = await scrub(
      ['--json', 'proof', 'verify', proofFile, '--input', leads, '--api-url', restarted.url],
      config,
    );
    expect(succeeded(old, 'scrub proof verify after the rotation').stdout).toContain('"valid": true');
    const renewed = JSON.parse(
      succeeded(
        await scrub(['--json', 'proof', reference, '--api-url', restarted.url], config),
        'scrub proof',
      ).stdout,
    );
    expect(renewed.statement.kid).not.toBe(JSON.parse(old.stdout).kid);
    expect(await restarted.stop()).toEqual({ code: 0, signal: null });
  }, 240_000);
});
