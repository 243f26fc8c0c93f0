import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountWithApiKey, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

describe('scrub account export and delete against the real server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startLocalServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('exports the account as JSON, refuses to delete without the address, deletes with it; the key then stops working', async () => {
    const email = 'clileaver@example.com';
    const apiKey = await accountWithApiKey(server, { sub: 'cli-leaver', email, credits: 5 });
    const env = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: apiKey };

    const output = join(mkdtempSync(join(tmpdir(), 'scrub-export-')), 'me.json');
    const exported = await scrub(['account', 'export', '-o', output], env);
    expect(exported.code, exported.stderr).toBe(0);
    const bundle = JSON.parse(readFileSync(output, 'utf8'));
    expect(bundle.account.email).toBe(email);
    expect(bundle).toMatchObject({ files: [], purchases: [], checks: [] });

    const unasked = await scrub(['account', 'delete'], env);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('pass --confirm-email ADDRESS');

    const wrong = await scrub(['account', 'delete', '--confirm-email', 'someone@example.com'], env);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('did not match');

    const deleted = await scrub(['account', 'delete', '--confirm-email', email], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('Your account was deleted.');
    const after = await scrub(['account'], env);
    expect(after.code).not.toBe(0);
  }, 60_000);
});
