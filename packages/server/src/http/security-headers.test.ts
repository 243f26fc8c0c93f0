import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIdentity } from '../../test/id-tokens.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  const id = await createTestIdentity();
  t = await createTestApp({}, { tokenVerifier: id.verifier });
  token = await id.token({ sub: 'headers-user', email: 'headers@example.com' });
});
afterAll(() => t.close());

describe('security headers', () => {
  it.each([
    ['a public answer', { method: 'GET' as const, url: '/health' }],
    ['a refusal', { method: 'GET' as const, url: '/user' }],
    ['an unknown path', { method: 'GET' as const, url: '/nope' }],
    ['a broken URL', { method: 'GET' as const, url: '/%E0%A4%A' }],
    [
      "the identity provider's answer",
      {
        method: 'POST' as const,
        url: '/identity',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'Nope' },
        payload: '{}',
      },
    ],
  ])('are on %s', async (_, request) => {
    const res = await t.app.inject(request);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keep a new API key out of every cache', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/apikey',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().api_key).toMatch(/^scrub_/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('leave a cache policy a route chose itself', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/${t.config.localIdentity.userPoolId}/.well-known/jwks.json`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/max-age/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
