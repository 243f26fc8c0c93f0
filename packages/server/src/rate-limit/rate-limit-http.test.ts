import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    rateLimits: {
      perKey: { max: 3, windowSeconds: 60 },
      perAccount: { max: 4, windowSeconds: 60 },
      perAddress: { max: 5, windowSeconds: 60 },
    },
  });
}, 60_000);
afterAll(() => t?.close());

let accounts = 0;
async function account(credits: number) {
  accounts++;
  const profile = await ensureProfile(t.database.db, {
    sub: `rl-${accounts}`,
    email: `rl${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  await applyLedgerEntry(t.database.db, { profileId: profile.id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(t.database.db, profile.id);
  return { profileId: profile.id, key: api_key };
}

const get = (url: string, remoteAddress: string, key?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    remoteAddress,
    headers: key ? { 'x-api-key': key } : {},
  } as InjectOptions);

describe('rate limits on the API', () => {
  it('refuses the 4th check with one key in a window: 429 rate_limited, Retry-After, RateLimit fields, no credit taken', async () => {
    const { profileId, key } = await account(100);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await get(`/verify?p=201234567${i}`, '198.51.100.1', key)).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await get('/verify?p=2012345679', '198.51.100.2', key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'rate_limited' });
    expect(refused.json().error.message).toMatch(/at most 3 per minute with this API key/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toContain('"key";q=3;w=60');
    expect(refused.headers.ratelimit).toMatch(/"key";r=0;t=\d+/);
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(97);
  });

  it('says what is left on answers that pass', async () => {
    const { key } = await account(10);
    const ok = await get('/credits', '198.51.100.3', key);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-policy']).toBe('"address";q=5;w=60, "key";q=3;w=60, "account";q=4;w=60');
    expect(ok.headers.ratelimit).toMatch(/^"address";r=4;t=\d+, "key";r=2;t=\d+, "account";r=3;t=\d+$/);
  });

  it('counts every request from one client address, public or not, and other addresses go on', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get('/health', '203.0.113.50')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await get('/plans', '203.0.113.50')).statusCode).toBe(429);
    expect((await get('/health', '203.0.113.51')).statusCode).toBe(200);
  });

  it('answers the identity protocol in its own shape when an address is over its limit', async () => {
    let last = await get('/health', '203.0.113.60');
    for (let i = 0; i < 5; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/identity',
        remoteAddress: '203.0.113.60',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.GetUser',
        },
        payload: JSON.stringify({ AccessToken: 'nope' }),
      } as InjectOptions);
    }
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ __type: 'TooManyRequestsException' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});
