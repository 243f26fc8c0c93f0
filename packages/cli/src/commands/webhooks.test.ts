import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accountWithApiKey, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

describe('scrub webhooks: usage', () => {
  const env = {
    SCRUB_CONFIG_DIR: tempConfigDir(),
    SCRUB_API_KEY: 'scrub_unused',
    SCRUB_API_URL: 'http://127.0.0.1:9',
  };

  it.each([
    [
      ['add', 'https://hooks.example.com/x', '--events', 'job.started'],
      '--events must be a comma-separated list of job.completed, job.failed',
    ],
    [['add', 'https://hooks.example.com/x', '--events', ','], '--events must be a comma-separated list'],
    [['deliveries', 'we_1', '--limit', '101'], '--limit must be a whole number from 1 to 100'],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await scrub(['webhooks', ...args], env);
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });
});

describe('scrub webhooks against the real server', () => {
  let server: RunningServer;
  let deadPort: number;

  beforeAll(async () => {
    server = await startLocalServer();
    // A port nobody listens on, for an endpoint that never answers.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
  }, 120_000);
  afterAll(() => server?.close());

  it('adds an endpoint (secret once), lists it, rotates its secret, reports a failed test with exit 1, removes it', async () => {
    const apiKey = await accountWithApiKey(server, {
      sub: 'cli-hooks',
      email: 'clihooks@example.com',
      credits: 0,
    });
    const env = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: apiKey };
    const url = `http://127.0.0.1:${deadPort}/hook`;

    const added = await scrub(
      ['webhooks', 'add', url, '--events', 'job.failed', '--description', 'Pager'],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    const id = /^id\s+(we_\w+)$/m.exec(added.stdout)?.[1];
    expect(id).toBeDefined();
    expect(added.stdout).toMatch(/^events\s+job\.failed$/m);
    const secret = /^secret\s+(whsec_\S+)$/m.exec(added.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(added.stderr).toMatch(/ONLY time you will see the signing secret/);

    const listed = await scrub(['webhooks', 'list'], env);
    expect(listed.stdout).toBe(`${id}\t${url}\tjob.failed\tPager\n`);
    expect(listed.stdout).not.toContain(secret);

    const rotated = await scrub(['--json', 'webhooks', 'rotate-secret', id!], env);
    expect(JSON.parse(rotated.stdout).secret).toMatch(/^whsec_/);
    expect(JSON.parse(rotated.stdout).secret).not.toBe(secret);
    // The old secret keeps signing for a day unless --grace says otherwise.
    expect(Date.parse(JSON.parse(rotated.stdout).previous_secret_expires_at)).toBeGreaterThan(
      Date.now() + 86_000_000,
    );
    expect(rotated.stderr).toMatch(/the old one keeps signing beside it until \d{4}-/);
    const now = await scrub(['webhooks', 'rotate-secret', id!, '--grace', '0'], env);
    expect(now.stderr).toMatch(/the old one no longer signs/);
    const bad = await scrub(['webhooks', 'rotate-secret', id!, '--grace', 'soon'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--grace must be a whole number of seconds/);

    const tested = await scrub(['webhooks', 'test', id!], env);
    expect(tested.code).toBe(1);
    expect(tested.stdout).toMatch(/^status\s+pending$/m);
    expect(tested.stderr).toMatch(
      /The test event was not delivered: connection refused; retried from \d{4}-/,
    );

    const log = await scrub(['webhooks', 'deliveries', id!], env);
    expect(log.stdout).toMatch(/\twebhook\.test\tevt_\w+\tpending\t1\tconnection refused\t\d{4}-/);

    const refused = await scrub(['webhooks', 'add', 'ftp://hooks.example.com/x'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/http:\/\/ or https:\/\//);

    expect((await scrub(['webhooks', 'remove', id!], env)).stderr).toMatch(new RegExp(`Removed ${id}`));
    expect((await scrub(['webhooks', 'list'], env)).stderr).toMatch(/No webhook endpoints yet/);
  });
});
