import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BulkJobSchema,
  JOB_ID_HEADER,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointWithSecretSchema,
  type WebhookEvent,
} from '@scrub/contract';
import { ClassCode, DncListBuilder, DncSet, ExchangeTableBuilder } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadFile, slowly } from '../../test/lead-files.js';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { loadConfig } from '../config/config.js';
import { ReferenceData } from '../reference-data/reference-data.js';
import { nextRetryAt } from '../webhooks/deliverer.js';
import { checkEndpointUrl, isPublicAddress } from '../webhooks/endpoint-url.js';
import { checkWebhookSignature } from '../webhooks/webhook-signature.js';

/** A receiver on this machine: keeps every request, answers the statuses queued for its path (else 200). */
interface Received {
  path: string;
  signature: string | undefined;
  body: string;
}
let receiver: Server;
let base: string;
const received: Received[] = [];
const answers = new Map<string, number[]>();

function hits(path: string) {
  return received.filter((r) => r.path === path);
}

async function until<T>(
  what: string,
  read: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Area 201: exchange 201-234 is mobile. The federal DNC list is required, and loaded or not per test. */
const referenceData = new ReferenceData({
  exchange: (() => {
    const builder = new ExchangeTableBuilder();
    builder.coverArea(201);
    builder.setExchange(201234, ClassCode.MOBILE);
    return builder.build('test-exchanges');
  })(),
  dnc: new DncSet(),
});
const loadFederal = (loaded: boolean) => {
  const builder = new DncListBuilder('federal');
  builder.add(2012340002);
  referenceData.ref.update({
    dnc: loaded ? new DncSet([builder.build('v1', RELEASED_TODAY)]) : new DncSet(),
  });
};

let t: TestApp;
let accounts = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({
        path,
        signature: req.headers['scrub-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = answers.get(path)?.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createTestApp(
    {
      dataDir: tempDir(),
      blobStore: { kind: 'local', dir: `${tempDir()}/files` },
      requireDnc: ['federal'],
      // Retries come after 50 ms rather than 30 s, so the test does not wait.
      webhooks: { allowLocal: true, retryBaseMs: 50, retryForSeconds: 86_400, retentionDays: 30 },
    },
    { referenceData },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function account(credits = 10) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `hooks-${accounts}`,
    email: `hooks${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { 'x-api-key': api_key };
}

type Headers = Record<string, string>;

async function call(headers: Headers, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

async function addEndpoint(headers: Headers, path: string, extra: object = {}) {
  const res = await call(headers, 'POST', '/webhook-endpoints', { url: `${base}${path}`, ...extra });
  expect(res.status).toBe(201);
  return WebhookEndpointWithSecretSchema.parse(res.body);
}

async function scrub(headers: Headers) {
  const created = await call(headers, 'POST', '/bulk/jobs', {
    file_name: 'leads.csv',
    phone_col: 'Phone',
    csv_content: 'Phone\n201-234-0001\n201-234-0002\n',
  });
  expect(created.status).toBe(201);
  return until('the job to end', async () => {
    const job = BulkJobSchema.parse((await call(headers, 'GET', `/bulk/jobs/${created.body.job_id}`)).body);
    return job.status === 'completed' || job.status === 'failed' ? job : undefined;
  });
}

/**
 * A job that fails: a file streamed by an account with too few credits for it, cut off part-way.
 * (A required list that is missing now refuses the submit itself, so no job is made that way.)
 * The account must afford the rows that arrive before the first charge (what came while the job
 * was being made, read as one block): a balance short of that block refuses the whole request with
 * a 402 and makes no job. 200 credits against 400 rows sent 20 at a time leaves room for ten sends.
 */
let appUrl: string | undefined;
async function scrubRunningOut(headers: Headers) {
  // A streamed job needs a real connection: the app listens for it.
  appUrl ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${appUrl}/bulk/jobs/stream?file_name=leads.csv&phone_col=phone`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'text/csv' },
    // Sent as it is read (no length given up front), so the job starts and is cut off part-way.
    body: slowly(leadFile(400, 3), 20, 20),
    duplex: 'half',
  } as RequestInit);
  const jobId = res.headers.get(JOB_ID_HEADER)!;
  await res.arrayBuffer().catch(() => undefined);
  return until('the job to end', async () => {
    const job = BulkJobSchema.parse((await call(headers, 'GET', `/bulk/jobs/${jobId}`)).body);
    return job.status === 'completed' || job.status === 'failed' ? job : undefined;
  });
}

async function deliveries(headers: Headers, endpointId: string) {
  const res = await call(headers, 'GET', `/webhook-endpoints/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  return WebhookDeliveryListSchema.parse(res.body);
}

describe('webhook endpoints', () => {
  it('registers an endpoint, shows its secret once, lists, gets and removes it; other accounts see nothing', async () => {
    const headers = await account();
    const endpoint = await addEndpoint(headers, '/crud', { description: 'CRM' });
    expect(endpoint.secret).toMatch(/^whsec_[\w-]{32}$/);
    expect(endpoint).toMatchObject({ events: ['job.completed', 'job.failed'], description: 'CRM' });

    const listed = await call(headers, 'GET', '/webhook-endpoints');
    expect(listed.body.endpoints).toEqual([
      {
        id: endpoint.id,
        url: `${base}/crud`,
        events: endpoint.events,
        description: 'CRM',
        created_at: endpoint.created_at,
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    expect((await call(headers, 'GET', `/webhook-endpoints/${endpoint.id}`)).body.id).toBe(endpoint.id);

    const stranger = await account();
    expect((await call(stranger, 'GET', `/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await call(stranger, 'DELETE', `/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await call(stranger, 'GET', '/webhook-endpoints')).body.endpoints).toEqual([]);

    const rotated = await call(headers, 'POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);

    expect((await call(headers, 'DELETE', `/webhook-endpoints/${endpoint.id}`)).status).toBe(200);
    expect((await call(headers, 'GET', `/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
  });

  it('refuses bad URLs and unknown events with a 400 naming the field, and a 17th endpoint with a 409', async () => {
    const headers = await account();
    const bad = async (payload: object) => {
      const res = await call(headers, 'POST', '/webhook-endpoints', payload);
      expect(res.status).toBe(400);
      return res.body;
    };
    expect((await bad({ url: 'ftp://example.com/hook' })).error.issues[0]).toMatchObject({
      path: 'url',
      message: expect.stringMatching(/http:\/\/ or https:\/\//),
    });
    expect((await bad({ url: 'not a url' })).error.issues[0].path).toBe('url');
    expect((await bad({ url: `${base}/x`, events: ['job.started'] })).error.issues[0].path).toMatch(
      /^events/,
    );
    expect((await bad({ url: `${base}/x`, events: [] })).error.issues[0].message).toMatch(
      /at least one event/,
    );
    expect((await bad({ url: 'http://user:pw@127.0.0.1/x' })).message).toMatch(/user name or password/);

    for (let i = 0; i < 16; i++) await addEndpoint(headers, `/many/${i}`);
    const seventeenth = await call(headers, 'POST', '/webhook-endpoints', { url: `${base}/many/16` });
    expect(seventeenth.status).toBe(409);
    expect(seventeenth.body.message).toMatch(/at most 16 webhook endpoints/);
    expect((await call(headers, 'GET', '/webhook-endpoints')).body.endpoints).toHaveLength(16);
  });

  it('in production, takes only https:// to public addresses', async () => {
    await expect(checkEndpointUrl('http://hooks.example.com/x', false)).rejects.toThrow(
      /must start with https:\/\//,
    );
    for (const url of [
      'https://localhost/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[::ffff:10.0.0.1]/x',
    ]) {
      await expect(checkEndpointUrl(url, false), url).rejects.toThrow(/private network address/);
    }
    expect(await checkEndpointUrl('https://93.184.215.14/hook', false)).toBe('https://93.184.215.14/hook');
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('172.20.0.1')).toBe(false);
    // The default: local receivers only with the embedded database outside production.
    expect(loadConfig({}).webhooks.allowLocal).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/scrub' }).webhooks.allowLocal).toBe(false);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/scrub', SCRUB_WEBHOOK_ALLOW_LOCAL: 'true' }).webhooks
        .allowLocal,
    ).toBe(true);
  });
});

describe('job events', () => {
  it('POSTs a signed job.completed when a job completes and job.failed when one fails', async () => {
    const headers = await account(200);
    const endpoint = await addEndpoint(headers, '/jobs');

    loadFederal(true);
    const done = await scrub(headers);
    expect(done.status).toBe('completed');
    const failed = await scrubRunningOut(headers);
    expect(failed.status).toBe('failed');

    const [first, second] = await until('two events', () =>
      hits('/jobs').length >= 2 ? hits('/jobs') : undefined,
    );
    const events = [first!, second!].map((hit) => {
      expect(checkWebhookSignature(hit.body, hit.signature ?? '', endpoint.secret)).toEqual({ ok: true });
      return JSON.parse(hit.body) as WebhookEvent;
    });
    const byType = Object.fromEntries(events.map((event) => [event.type, event]));
    expect(byType['job.completed']?.data.job).toMatchObject({ job_id: done.job_id, status: 'completed' });
    // The job's credits as GET /bulk/jobs/{id} gives them: charged 2, nothing given back.
    expect(byType['job.completed']?.data.job?.credits).toEqual(done.credits);
    expect(done.credits).toMatchObject({ charged: 2, net: 2 });
    expect(byType['job.completed']?.id).toMatch(/^evt_/);
    expect(byType['job.failed']?.data.job).toMatchObject({
      job_id: failed.job_id,
      status: 'failed',
      error: expect.stringMatching(/^Your credits ran out after /),
    });

    // The signature is over this exact body: a changed body or an old timestamp does not verify.
    const tampered = first!.body.replace(/"processed_rows":\d+/, '"processed_rows":0');
    expect(tampered).not.toBe(first!.body);
    expect(checkWebhookSignature(tampered, first!.signature!, endpoint.secret).ok).toBe(false);
    expect(checkWebhookSignature(first!.body, first!.signature!, 'whsec_another').ok).toBe(false);
    const signedAt = Number(/t=(\d+)/.exec(first!.signature!)?.[1]);
    expect(
      checkWebhookSignature(first!.body, first!.signature!, endpoint.secret, 300, signedAt + 301),
    ).toEqual({
      ok: false,
      reason: 'Timestamp outside the tolerance zone',
    });

    const log = await until('both delivered', async () => {
      const page = await deliveries(headers, endpoint.id);
      return page.deliveries.every((d) => d.status === 'delivered') ? page : undefined;
    });
    expect(log.total_count).toBe(2);
    expect(log.deliveries.map((d) => d.type).sort()).toEqual(['job.completed', 'job.failed']);
    for (const delivery of log.deliveries) {
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 1,
        status_code: 200,
        error: null,
        next_retry_at: null,
      });
      expect(delivery.log[0]?.response_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('sends only the events an endpoint subscribed to', async () => {
    const headers = await account(200);
    await addEndpoint(headers, '/only-failed', { events: ['job.failed'] });
    loadFederal(true);
    expect((await scrub(headers)).status).toBe('completed');
    const failed = await scrubRunningOut(headers);
    const hit = await until('the failed event', () => hits('/only-failed')[0]);
    expect(JSON.parse(hit.body).data.job.job_id).toBe(failed.job_id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hits('/only-failed')).toHaveLength(1);
  });

  it('retries a delivery the receiver answered 500, and logs both attempts', async () => {
    const headers = await account();
    const endpoint = await addEndpoint(headers, '/flaky');
    answers.set('/flaky', [500]);
    loadFederal(true);
    await scrub(headers);
    const [failedTry, retry] = await until('a retry', () =>
      hits('/flaky').length >= 2 ? hits('/flaky') : undefined,
    );
    expect(retry!.body).toBe(failedTry!.body);
    const [delivery] = await until('the retry to be logged', async () => {
      const page = await deliveries(headers, endpoint.id);
      return page.deliveries[0]?.status === 'delivered' ? page.deliveries : undefined;
    });
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, status_code: 200 });
    expect(delivery!.log.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'the endpoint answered 500'],
      [2, 200, null],
    ]);
  });
});

describe('test events and backoff', () => {
  it('sends a signed webhook.test at once and answers the delivery; an unreachable endpoint is logged and retried', async () => {
    const headers = await account();
    const endpoint = await addEndpoint(headers, '/test-event');
    const sent = await call(headers, 'POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(sent.status).toBe(200);
    expect(WebhookDeliverySchema.parse(sent.body)).toMatchObject({
      type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      status_code: 200,
    });
    const hit = hits('/test-event')[0]!;
    expect(checkWebhookSignature(hit.body, hit.signature!, endpoint.secret).ok).toBe(true);
    expect(JSON.parse(hit.body)).toMatchObject({ id: sent.body.event_id, type: 'webhook.test' });

    // A port nobody listens on: the attempt's error says so and a retry is scheduled.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dead = await call(headers, 'POST', '/webhook-endpoints', { url: `http://127.0.0.1:${port}/gone` });
    const tried = await call(headers, 'POST', `/webhook-endpoints/${dead.body.id}/test`);
    expect(tried.body).toMatchObject({
      status: 'pending',
      attempts: 1,
      status_code: null,
      error: 'connection refused',
    });
    expect(tried.body.next_retry_at).not.toBeNull();
    await call(headers, 'DELETE', `/webhook-endpoints/${dead.body.id}`);
  });

  it('backs off exponentially with jitter, and gives up a day after the event', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const giveUp = new Date(now.getTime() + 86_400_000);
    const delays = [1, 2, 3, 4].map(
      (n) => (nextRetryAt(n, 30_000, giveUp, now)!.getTime() - now.getTime()) / 1000,
    );
    [30, 60, 120, 240].forEach((expected, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(expected * 0.75);
      expect(delays[i]).toBeLessThanOrEqual(expected * 1.25);
    });
    expect(nextRetryAt(30, 30_000, giveUp, now)!.getTime() - now.getTime()).toBeLessThanOrEqual(
      3_600_000 * 1.25,
    );
    expect(nextRetryAt(1, 30_000, giveUp, new Date(giveUp.getTime() - 1000))).toEqual(giveUp);
    expect(nextRetryAt(1, 30_000, giveUp, giveUp)).toBeNull();
  });
});
