import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  RotatedWebhookSecretSchema,
  WebhookDeliverySchema,
  WebhookEndpointWithSecretSchema,
  type WebhookEvent,
} from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { poolSignIn, poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { LocalBlobStore } from '../blob-store/local-blob-store.js';
import { JobExpiry } from '../bulk/job-expiry.js';
import { createJob, submitJob } from '../bulk/job-store.js';
import { loadConfig } from '../config/config.js';
import { WebhookDeliverer } from '../webhooks/deliverer.js';
import { webhookRetentionSweep } from '../webhooks/retention.js';
import { checkWebhookSignature } from '../webhooks/webhook-signature.js';
import { listDeliveries, recordEvent } from '../webhooks/webhook-store.js';

/** A receiver on this machine that keeps every request's path, signature header and body. */
interface Received {
  path: string;
  signature: string;
  body: string;
}

describe.each(testDatabases())('webhook secrets, retention and disabled accounts on $kind', (kind) => {
  let t: TestApp;
  let receiver: Server;
  let base: string;
  let boss: Record<string, string>;
  let people = 0;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          path: req.url ?? '/',
          signature: String(req.headers['scrub-signature'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        adminEmails: ['boss@example.com'],
        // No worker: a job queued here stays queued until the test disables its account.
        runBulkWorker: false,
        webhooks: { allowLocal: true, retryBaseMs: 50, retryForSeconds: 86_400, retentionDays: 30 },
      },
      { database: await kind.open() },
    );
    boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  async function call(options: InjectOptions) {
    const res = await t.app.inject(options);
    return { status: res.statusCode, body: res.json() };
  }

  /** An account made through the admin API: its profile id and a fresh ID token. */
  async function person() {
    const le = `hooks${++people}@example.com`;
    const created = await call({
      method: 'POST',
      url: '/admin/users',
      headers: boss,
      payload: { le, lp: TEST_PASSWORD, lp_confirm: TEST_PASSWORD, ut: 'user' },
    });
    expect(created.status).toBe(201);
    return { id: created.body.user_id as string, headers: bearer(await poolSignIn(t.app, t.config, le)) };
  }

  async function addEndpoint(headers: Record<string, string>, path: string) {
    const res = await call({
      method: 'POST',
      url: '/webhook-endpoints',
      headers,
      payload: { url: `${base}${path}` },
    });
    expect(res.status).toBe(201);
    return WebhookEndpointWithSecretSchema.parse(res.body);
  }

  async function sendTest(headers: Record<string, string>, endpointId: string, path: string) {
    const before = received.filter((r) => r.path === path).length;
    const sent = await call({ method: 'POST', url: `/webhook-endpoints/${endpointId}/test`, headers });
    expect(WebhookDeliverySchema.parse(sent.body).status).toBe('delivered');
    const hit = received.filter((r) => r.path === path)[before];
    expect(hit).toBeDefined();
    return hit!;
  }

  it('a rotated secret keeps signing beside the new one for its grace, so either verifies', async () => {
    const { headers } = await person();
    const endpoint = await addEndpoint(headers, '/grace');

    const rotated = await call({
      method: 'POST',
      url: `/webhook-endpoints/${endpoint.id}/rotate-secret`,
      headers,
    });
    expect(rotated.status).toBe(200);
    const fresh = RotatedWebhookSecretSchema.parse(rotated.body);
    expect(fresh.secret).not.toBe(endpoint.secret);
    // A day by default.
    const graceMs = Date.parse(fresh.previous_secret_expires_at!) - Date.now();
    expect(graceMs).toBeGreaterThan(86_400_000 - 60_000);
    expect(graceMs).toBeLessThanOrEqual(86_400_000 + 5_000);

    const during = await sendTest(headers, endpoint.id, '/grace');
    expect(during.signature.match(/v1=/g)).toHaveLength(2);
    expect(checkWebhookSignature(during.body, during.signature, fresh.secret)).toEqual({ ok: true });
    expect(checkWebhookSignature(during.body, during.signature, endpoint.secret)).toEqual({ ok: true });

    // Rotated again with no grace: only the newest secret signs; both older ones are refused.
    const now = await call({
      method: 'POST',
      url: `/webhook-endpoints/${endpoint.id}/rotate-secret`,
      headers,
      payload: { grace_seconds: 0 },
    });
    const newest = RotatedWebhookSecretSchema.parse(now.body);
    expect(newest.previous_secret_expires_at).toBeNull();
    const after = await sendTest(headers, endpoint.id, '/grace');
    expect(after.signature.match(/v1=/g)).toHaveLength(1);
    expect(checkWebhookSignature(after.body, after.signature, newest.secret).ok).toBe(true);
    expect(checkWebhookSignature(after.body, after.signature, fresh.secret).ok).toBe(false);
    expect(checkWebhookSignature(after.body, after.signature, endpoint.secret).ok).toBe(false);

    const tooLong = await call({
      method: 'POST',
      url: `/webhook-endpoints/${endpoint.id}/rotate-secret`,
      headers,
      payload: { grace_seconds: 8 * 86_400 },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.issues[0].path).toBe('grace_seconds');
  });

  it("removes events and their attempts after the operator's retention, in the worker's expiry sweep", async () => {
    expect(loadConfig({}).webhooks.retentionDays).toBe(30);
    expect(loadConfig({ SCRUB_WEBHOOK_RETENTION_DAYS: '7' }).webhooks.retentionDays).toBe(7);

    const { id, headers } = await person();
    const endpoint = await addEndpoint(headers, '/kept');
    await sendTest(headers, endpoint.id, '/kept');
    // One more event whose delivery is still being retried: kept whatever its age.
    await recordEvent(t.database.db, {
      profileId: id,
      type: 'job.completed',
      data: {},
      retryForSeconds: 86_400,
      heldForSeconds: 3600,
    });
    const db = t.database.db;
    const log = () => listDeliveries(db, endpoint.id, 1, 10);
    expect((await log()).total_count).toBe(2);

    const expiry = new JobExpiry({
      db,
      blobStore: new LocalBlobStore({ dir: `${tempDir()}/files`, publicUrl: () => 'http://127.0.0.1' }),
      logger: false,
      ttlSeconds: 365 * 86_400,
      everySeconds: 3600,
      alsoRemove: [webhookRetentionSweep(db, 30)],
    });
    await expiry.sweep(new Date(Date.now() + 29 * 86_400_000));
    expect((await log()).total_count).toBe(2);

    await expiry.sweep(new Date(Date.now() + 31 * 86_400_000));
    const left = await log();
    expect(left.deliveries.map((d) => d.status)).toEqual(['pending']);
    const attempts = await db.selectFrom('webhook_attempts').select('delivery_id').execute();
    expect(attempts.some((a) => !left.deliveries.some((d) => d.id === a.delivery_id))).toBe(false);
  });

  it('a job failed because an admin disabled the account sends job.failed', async () => {
    const { id, headers } = await person();
    const endpoint = await addEndpoint(headers, '/disabled');
    const db = t.database.db;
    const job = await createJob(db, {
      profileId: id,
      fileName: 'a.csv',
      fileMethod: 'api',
      phoneCol: 0,
      headerRow: true,
      mapping: {},
    });
    await submitJob(db, job, 0);

    expect((await call({ method: 'DELETE', url: `/admin/users/${id}`, headers: boss })).status).toBe(200);

    // The outbox holds the event; a deliverer (the worker's, elsewhere) sends it.
    const deliverer = new WebhookDeliverer({
      db,
      logger: false,
      allowLocal: true,
      retryBaseMs: 50,
      pollMs: 20,
    });
    deliverer.start();
    const end = Date.now() + 10_000;
    while (!received.some((r) => r.path === '/disabled') && Date.now() < end)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await deliverer.stop();
    const hit = received.find((r) => r.path === '/disabled');
    expect(hit).toBeDefined();
    expect(checkWebhookSignature(hit!.body, hit!.signature, endpoint.secret).ok).toBe(true);
    const event = JSON.parse(hit!.body) as WebhookEvent;
    expect(event.type).toBe('job.failed');
    expect(event.data.job).toMatchObject({
      job_id: job.id,
      status: 'failed',
      error: 'the account was disabled',
    });
  });
});
