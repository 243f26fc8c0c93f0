import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { loadConfig } from '../config/config.js';

const DASHBOARD = 'https://app.example.com';
const OTHER = 'https://evil.example';

let listed: TestApp;
let unlisted: TestApp;
beforeAll(async () => {
  listed = await createTestApp({ corsOrigins: [DASHBOARD, 'http://localhost:5173'] });
  unlisted = await createTestApp();
});
afterAll(async () => {
  await listed.close();
  await unlisted.close();
});

const preflight = (url: string, origin: string, method: string, headers: string): InjectOptions => ({
  method: 'OPTIONS',
  url,
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

describe('SCRUB_CORS_ORIGINS', () => {
  it('answers a listed origin on the API, echoing it, without credentials', async () => {
    const res = await listed.app.inject({ method: 'GET', url: '/plans', headers: { origin: DASHBOARD } });

    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toContain('x-request-id');
    expect(res.headers.vary).toContain('Origin');
  });

  it('gives any other origin no CORS headers', async () => {
    const res = await listed.app.inject({ method: 'GET', url: '/plans', headers: { origin: OTHER } });

    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows the SDK headers in a preflight for the API and for an upload URL', async () => {
    const api = await listed.app.inject(
      preflight('/user', DASHBOARD, 'PUT', 'authorization,content-type,idempotency-key'),
    );
    expect(api.statusCode).toBe(204);
    expect(api.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(api.headers['access-control-allow-headers']).toContain('authorization');
    expect(api.headers['access-control-allow-methods']).toContain('PUT');

    const upload = await listed.app.inject(
      preflight('/uploads/ref_1.csv?signature=x', DASHBOARD, 'PUT', 'content-type'),
    );
    expect(upload.statusCode).toBe(204);
    expect(upload.headers['access-control-allow-origin']).toBe(DASHBOARD);

    const refused = await listed.app.inject(preflight('/user', OTHER, 'PUT', 'authorization'));
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps the identity endpoint open to any origin, with the Cognito headers, as Cognito is', async () => {
    for (const app of [listed.app, unlisted.app]) {
      const res = await app.inject(
        preflight('/identity', OTHER, 'POST', 'content-type,x-amz-target,x-amz-user-agent,cache-control'),
      );
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-headers']).toBe(
        'content-type, x-amz-target, x-amz-user-agent, cache-control',
      );
    }
  });

  it('answers no origin on the API when none is listed, nor on the operator channel ever', async () => {
    const api = await unlisted.app.inject({ method: 'GET', url: '/plans', headers: { origin: DASHBOARD } });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();

    const operator = await listed.app.inject(preflight('/_local/mail', DASHBOARD, 'GET', 'authorization'));
    expect(operator.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('reads a comma-separated list of origins and refuses a wildcard or a path', () => {
    expect(
      loadConfig({ SCRUB_CORS_ORIGINS: ' https://a.example , http://localhost:5173/ ' }).corsOrigins,
    ).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(() => loadConfig({ SCRUB_CORS_ORIGINS: '*' })).toThrow(/SCRUB_CORS_ORIGINS/);
    expect(() => loadConfig({ SCRUB_CORS_ORIGINS: 'https://a.example/app' })).toThrow(/SCRUB_CORS_ORIGINS/);
  });
});
