import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verifyWebhookSignature, type WebhookDeliveryList, type WebhookEndpointWithSecret } from '@scrub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, scrub, scrubServer, startServer, tempDir } from './harness.js';

const email = 'hooks@example.com';
const password = 'Correct-Horse-9';

function succeeded(result: RunResult, what: string): RunResult {
  if (result.code !== 0) {
    throw new Error(`${what} exited ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return result;
}

interface Hit {
  path: string;
  signature: string | undefined;
  body: string;
}
const hits: Hit[] = [];
let receiver: Server;
let hookBase: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      hits.push({
        path: req.url ?? '/',
        signature: req.headers['scrub-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

describe('job webhooks on the built binaries', () => {
  it('scrub webhooks add, then scrub bulk --wait: the receiver gets a job.completed the SDK verifies', async () => {
    const dataDir = tempDir('data-');
    const server = await startServer(dataDir);
    const config = tempDir('config-');
    const cli = (args: string[], input?: string) =>
      scrub([...args, '--api-url', server.url], config, input === undefined ? {} : { input });

    // An account with credits, signed in as a user signs in; the operator grants the credits.
    succeeded(
      await cli(['signup', '--email', email, '--name', 'Hook Tester', '--password-stdin'], `${password}\n`),
      'scrub signup',
    );
    const mail = succeeded(
      await scrubServer(['mail', '--to', email, '--last'], dataDir),
      'scrub-server mail',
    );
    const code = /Your Scrub verification code: (\d{6})/.exec(mail.stdout)?.[1];
    if (!code) throw new Error(`No verification code in:\n${mail.stdout}`);
    succeeded(await cli(['confirm', '--email', email, '--code', code]), 'scrub confirm');
    succeeded(await cli(['login', '--email', email, '--password-stdin'], `${password}\n`), 'scrub login');
    succeeded(await scrubServer(['credits', 'grant', email, '100'], dataDir), 'scrub-server credits grant');

    const added = succeeded(
      await cli(['--json', 'webhooks', 'add', `${hookBase}/hook`]),
      'scrub webhooks add',
    );
    const endpoint = JSON.parse(added.stdout) as WebhookEndpointWithSecret;
    expect(endpoint).toMatchObject({ url: `${hookBase}/hook`, events: ['job.completed', 'job.failed'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(added.stderr).toMatch(/ONLY time you will see the signing secret/);

    const listed = succeeded(await cli(['webhooks', 'list']), 'scrub webhooks list');
    expect(listed.stdout).toBe(`${endpoint.id}\t${hookBase}/hook\tjob.completed,job.failed\t\n`);

    const tested = succeeded(await cli(['webhooks', 'test', endpoint.id]), 'scrub webhooks test');
    expect(tested.stdout).toMatch(/status\s+delivered/);
    const testHit = hits.find((hit) => hit.body.includes('"webhook.test"'));
    expect(testHit).toBeDefined();
    await expect(
      verifyWebhookSignature(testHit!.body, testHit!.signature, endpoint.secret),
    ).resolves.toMatchObject({
      type: 'webhook.test',
    });

    const csv = join(tempDir('csv-'), 'leads.csv');
    writeFileSync(csv, 'Name,Phone\nAda,2015550123\nBob,2125550199\n');
    const out = join(tempDir('out-'), 'scrubbed.csv');
    const bulk = succeeded(
      await cli(['--json', 'bulk', csv, '--phone-col', 'Phone', '--yes', '--wait', '-o', out]),
      'scrub bulk --wait',
    );
    const job = JSON.parse(bulk.stdout) as { job_id: string; status: string };
    expect(job.status).toBe('completed');

    const deadline = Date.now() + 15_000;
    const completed = () => hits.find((h) => h.path === '/hook' && h.body.includes('"job.completed"'));
    while (!completed()) {
      if (Date.now() > deadline)
        throw new Error(`No job.completed within 15 s; received: ${JSON.stringify(hits)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const hit = completed()!;
    const event = await verifyWebhookSignature(hit.body, hit.signature, endpoint.secret);
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { job: { job_id: job.job_id, status: 'completed' } },
    });
    expect(event.id).toMatch(/^evt_/);
    // Signed for this body and this secret only.
    await expect(
      verifyWebhookSignature(hit.body.replace(job.job_id, 'another'), hit.signature, endpoint.secret),
    ).rejects.toThrow(/No signature matches/);

    const log = succeeded(
      await cli(['--json', 'webhooks', 'deliveries', endpoint.id]),
      'scrub webhooks deliveries',
    );
    const deliveries = JSON.parse(log.stdout) as WebhookDeliveryList;
    expect(deliveries.deliveries.map((d) => [d.type, d.status, d.status_code])).toEqual([
      ['job.completed', 'delivered', 200],
      ['webhook.test', 'delivered', 200],
    ]);

    succeeded(await cli(['webhooks', 'remove', endpoint.id]), 'scrub webhooks remove');
    const gone = await cli(['webhooks', 'test', endpoint.id]);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(new RegExp(`No webhook endpoint ${endpoint.id}`));
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
