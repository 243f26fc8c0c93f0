import { Readable } from 'node:stream';
import { routes } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { MemoryTokenStorage } from './auth/token-storage.js';
import { type ClientOptions, Scrub } from './client.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  ScrubError,
} from './errors.js';

const BASE = 'http://scrub.test';
const health = {
  status: 'ok',
  version: '0.1.0',
  database: { kind: 'pglite', ok: true },
  reference_data: { nanpa: '2025-11-26' },
  uptime_seconds: 12,
};
const unavailable = {
  error: { code: 'service_unavailable', message: 'Try again shortly' },
  message: 'Try again shortly',
};

/** Records the waits between retries instead of sleeping through them. */
class RecordingScrub extends Scrub {
  readonly delays: number[] = [];

  protected override async sleep(ms: number): Promise<void> {
    this.delays.push(ms);
  }
}

const makeClient = (options: ClientOptions = {}) => new RecordingScrub({ baseURL: BASE, ...options });

/** A server that never finishes answering `/health`: every request waits until its signal aborts. */
function hangingHealth(calls: { count: number }): void {
  nock(BASE)
    .get('/health')
    .times(5)
    .reply(200, () => new Readable({ read() {} }))
    .on('request', () => calls.count++);
}

beforeAll(() => nock.disableNetConnect());
beforeEach(() => {
  vi.stubEnv('SCRUB_API_URL', '');
  vi.stubEnv('SCRUB_API_KEY', '');
});
afterEach(() => {
  nock.cleanAll();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('construction', () => {
  it('reads the base URL and API key from the environment', async () => {
    vi.stubEnv('SCRUB_API_URL', 'http://from-env.test/');
    vi.stubEnv('SCRUB_API_KEY', 'sk_env');
    const scope = nock('http://from-env.test')
      .matchHeader('x-api-key', 'sk_env')
      .get('/health')
      .reply(200, health);

    const client = new Scrub();

    expect(client.baseURL).toBe('http://from-env.test');
    await expect(client.health()).resolves.toEqual(health);
    scope.done();
  });

  it('defaults to the local server, two retries and a 60 s timeout', () => {
    const client = new Scrub();

    expect(client.baseURL).toBe('http://localhost:8787');
    expect(client.maxRetries).toBe(2);
    expect(client.timeout).toBe(60_000);
  });

  it('uses an injected fetch instead of the global one', async () => {
    const scope = nock(BASE).get('/health').reply(200, health);
    const seen: string[] = [];
    const client = makeClient({
      fetch: (url, init) => {
        seen.push(String(url));
        return fetch(url, init);
      },
    });

    await expect(client.health()).resolves.toEqual(health);
    expect(seen).toEqual([`${BASE}/health`]);
    scope.done();
  });
});

describe('old namespace names (deprecated, kept for existing code)', () => {
  it('answers user, dnc and subscription with the very objects of account, suppression and subscriptions', () => {
    const client = makeClient();

    expect(client.user).toBe(client.account);
    expect(client.dnc).toBe(client.suppression);
    expect(client.subscription).toBe(client.subscriptions);
  });

  it('still calls the same routes through credits.get() and the payments namespace', async () => {
    const confirmation = { status: 'failed', message: 'Refused', purchase: null };
    const scope = nock(BASE)
      .get('/credits')
      .reply(200, { credits: 5 })
      .get('/payment-methods/exists')
      .reply(200, { exists: true })
      .post('/payment/confirm', { payment_intent_id: 'pi_1' })
      .reply(200, confirmation);
    const client = makeClient();

    await expect(client.credits.get()).resolves.toEqual({ credits: 5 });
    await expect(client.payments.hasMethod()).resolves.toBe(true);
    await expect(client.payments.confirm('pi_1')).resolves.toEqual(confirmation);
    scope.done();
  });
});

describe('session storage', () => {
  it("keeps the session in a browser's localStorage by default", () => {
    const localStorage = new MemoryTokenStorage();
    vi.stubGlobal('window', { localStorage });

    expect(new Scrub().tokenStorage).toBe(localStorage);
  });

  it('keeps it in memory where the browser refuses storage, and outside a browser', () => {
    vi.stubGlobal('window', {
      get localStorage() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    expect(new Scrub().tokenStorage).toBeInstanceOf(MemoryTokenStorage);

    vi.unstubAllGlobals();
    expect(new Scrub().tokenStorage).toBeInstanceOf(MemoryTokenStorage);
  });
});

describe('headers', () => {
  it('sends the API key as x-api-key and names the client and its version', async () => {
    const scope = nock(BASE)
      .matchHeader('x-api-key', 'sk_test')
      .matchHeader('x-scrub-client', `sdk/${packageJson.version}`)
      .matchHeader('accept', 'application/json')
      .get('/health')
      .reply(200, health);

    await makeClient({ apiKey: 'sk_test' }).health();
    scope.done();
  });

  it('sends no x-api-key without a key', async () => {
    const scope = nock(BASE, { badheaders: ['x-api-key'] })
      .get('/health')
      .reply(200, health);

    await makeClient().health();
    scope.done();
  });

  it('sends default headers, and per-request headers win over them', async () => {
    const scope = nock(BASE)
      .matchHeader('x-team', 'growth')
      .matchHeader('x-trace', 'call-2')
      .get('/health')
      .reply(200, health);

    await makeClient({ defaultHeaders: { 'x-team': 'growth', 'x-trace': 'default' } }).health({
      headers: { 'x-trace': 'call-2' },
    });
    scope.done();
  });
});

describe('request', () => {
  it('fills path parameters, leaves undefined query values out and sends JSON bodies', async () => {
    const scope = nock(BASE)
      .get('/files/ref%2F1')
      .reply(200, { reference: 'ref/1' })
      .get('/files')
      .query({ page: '2', dnc: '1' })
      .reply(200, { files: [] })
      .post('/bulk/jobs', { file_name: 'leads.csv', phone_col: 'Phone' })
      .matchHeader('content-type', 'application/json')
      .reply(201, { job_id: 'job_1' });
    const client = makeClient();

    await client.request(routes.getFile, { file_reference: 'ref/1' });
    await client.request(routes.listFiles, { page: 2, search: undefined, dnc: '1' });
    await expect(
      client.request(routes.createBulkJob, { file_name: 'leads.csv', phone_col: 'Phone' }),
    ).resolves.toEqual({ job_id: 'job_1' });
    scope.done();
  });

  it('keeps a path prefix of the base URL', async () => {
    const scope = nock(BASE).get('/api/v1/health').reply(200, health);

    await makeClient({ baseURL: `${BASE}/api/v1/` }).health();
    scope.done();
  });

  it('says the base URL is probably wrong when a success is not JSON', async () => {
    nock(BASE)
      .get('/health')
      .reply(200, '<!doctype html><title>Dashboard</title>', { 'content-type': 'text/html' });

    const error = await makeClient()
      .health()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ScrubError);
    expect((error as ScrubError).message).toBe(
      `GET /health answered 200 with a body that is not JSON: is ${BASE} the Scrub API?`,
    );
  });
});

describe('retries', () => {
  it.each([408, 409, 429, 500, 502, 503])('retries a %i and returns the later success', async (status) => {
    const scope = nock(BASE).get('/health').reply(status, unavailable).get('/health').reply(200, health);
    const client = makeClient();

    await expect(client.health()).resolves.toEqual(health);
    expect(client.delays).toHaveLength(1);
    scope.done();
  });

  it('stops after maxRetries and throws the last error', async () => {
    let attempts = 0;
    nock(BASE)
      .get('/health')
      .times(10)
      .reply(() => {
        attempts++;
        return [503, unavailable];
      });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const client = makeClient();

    const error = await client.health().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).message).toBe('503 Try again shortly');
    expect(attempts).toBe(3);
    expect(client.delays).toEqual([500, 1000]);
  });

  it('takes maxRetries per request', async () => {
    let attempts = 0;
    nock(BASE)
      .get('/health')
      .times(10)
      .reply(() => {
        attempts++;
        return [503, unavailable];
      });

    await expect(makeClient().health({ maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(attempts).toBe(1);
  });

  it.each([400, 401, 404])('does not retry a %i', async (status) => {
    let attempts = 0;
    nock(BASE)
      .get('/health')
      .times(10)
      .reply(() => {
        attempts++;
        return [status, { error: { code: 'bad_request', message: 'No' }, message: 'No' }];
      });
    const client = makeClient();

    await expect(client.health()).rejects.toMatchObject({ status });
    expect(attempts).toBe(1);
    expect(client.delays).toEqual([]);
  });

  it('waits as long as Retry-After says, in seconds or milliseconds', async () => {
    const scope = nock(BASE)
      .get('/health')
      .reply(429, unavailable, { 'retry-after': '3' })
      .get('/health')
      .reply(503, unavailable, { 'retry-after-ms': '250' })
      .get('/health')
      .reply(200, health);
    const client = makeClient();

    await client.health();
    expect(client.delays).toEqual([3000, 250]);
    scope.done();
  });

  it('falls back to its own backoff when Retry-After asks for more than a minute', async () => {
    const scope = nock(BASE)
      .get('/health')
      .reply(429, unavailable, { 'retry-after': '3600' })
      .get('/health')
      .reply(200, health);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const client = makeClient();

    await client.health();
    expect(client.delays).toEqual([500]);
    scope.done();
  });

  it('tells how long to wait when rate limited for good', async () => {
    nock(BASE)
      .get('/health')
      .reply(
        429,
        { error: { code: 'rate_limited', message: 'Slow down' }, message: 'Slow down' },
        { 'retry-after': '7' },
      );

    const error = await makeClient({ maxRetries: 0 })
      .health()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(7);
  });

  it('retries connection errors, then reports why the server could not be reached', async () => {
    nock(BASE).get('/health').times(3).replyWithError('connect ECONNREFUSED 127.0.0.1:8787');
    const client = makeClient();

    const error = await client.health().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(`Could not reach ${BASE}: connect ECONNREFUSED 127.0.0.1:8787`);
    expect(client.delays).toHaveLength(2);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('recovers when the connection comes back', async () => {
    const scope = nock(BASE)
      .get('/health')
      .replyWithError('socket hang up')
      .get('/health')
      .reply(200, health);

    await expect(makeClient().health()).resolves.toEqual(health);
    scope.done();
  });

  it('sends one Idempotency-Key per call, the same on every retry', async () => {
    const keys: (string | null)[] = [];
    const answers = [503, 503, 200];
    nock(BASE)
      .post('/bulk/jobs/job_1/submit')
      .times(6)
      .reply((request: Request) => {
        keys.push(request.headers.get('idempotency-key'));
        const status = answers.shift() ?? 200;
        return [status, status === 200 ? { job_id: 'job_1' } : unavailable];
      });
    const client = makeClient();

    await client.request(routes.submitBulkJob, { job_id: 'job_1' });
    await client.request(routes.submitBulkJob, { job_id: 'job_1' });

    expect(keys).toHaveLength(4);
    const [first, second, third, nextCall] = keys;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect([second, third]).toEqual([first, first]);
    expect(nextCall).not.toBe(first);
  });

  it('sends no Idempotency-Key on GET', async () => {
    const scope = nock(BASE, { badheaders: ['idempotency-key'] })
      .get('/health')
      .reply(200, health);

    await makeClient().health();
    scope.done();
  });
});

describe('timeouts and aborts', () => {
  it('times out each attempt, retries, then throws APIConnectionTimeoutError', async () => {
    const calls = { count: 0 };
    hangingHealth(calls);
    const client = makeClient({ timeout: 20, maxRetries: 1 });

    const error = await client.health().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe('Request timed out after 20 ms.');
    expect(calls.count).toBe(2);
  });

  it('takes the timeout per request', async () => {
    hangingHealth({ count: 0 });
    const client = makeClient({ maxRetries: 0 });

    await expect(client.health({ timeout: 10 })).rejects.toThrow('Request timed out after 10 ms.');
  });

  it("throws APIUserAbortError, without retrying, when the caller's signal aborts", async () => {
    const calls = { count: 0 };
    hangingHealth(calls);
    const controller = new AbortController();
    const client = makeClient();

    const pending = client.health({ signal: controller.signal });
    // Aborted while the server is answering, where a retry would be tempting.
    await vi.waitFor(() => expect(calls.count).toBe(1));
    controller.abort();

    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    expect(calls.count).toBe(1);
    expect(client.delays).toEqual([]);
  });

  it('stops waiting to retry as soon as the caller aborts', async () => {
    nock(BASE).get('/health').reply(503, unavailable, { 'retry-after': '30' });
    const controller = new AbortController();
    const client = new Scrub({ baseURL: BASE });

    const pending = client.health({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);

    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });
});
