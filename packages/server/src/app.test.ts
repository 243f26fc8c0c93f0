import { ErrorEnvelopeSchema, HealthSchema, type Plan, PlanListSchema } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { NO_PLAN_NAME } from './account/profiles.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ maxBodyBytes: 1024 });
});
afterAll(() => t.close());

function plan(plans: Plan[], reference: string): Plan {
  const found = plans.find((p) => p.plan_reference === reference);
  if (!found) throw new Error(`plan ${reference} is missing`);
  return found;
}

describe('GET /plans', () => {
  let plans: Plan[];
  beforeAll(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/plans' });
    expect(res.statusCode).toBe(200);
    plans = PlanListSchema.parse(res.json()).plans;
  });

  it('offers STANDARD, POWER and ELITE as monthly postpaid plans', () => {
    for (const name of ['STANDARD', 'POWER', 'ELITE']) {
      const p = plans.find((x) => x.plan_name === name);
      expect(p, name).toMatchObject({ plan_type: 'postpaid', interval: 'month', currency: 'usd' });
    }
  });

  it('marks exactly 79541679412214 and 79541679412215 as unlimited, with no credit count', () => {
    const unlimited = plans.filter((p) => p.unlimited).map((p) => p.plan_reference);
    expect(unlimited.sort()).toEqual(['79541679412214', '79541679412215']);
    expect(plan(plans, '79541679412214').plan_credits).toBeNull();
  });

  it('gives 79541679412216 the amounts $83, $158, $744, $1400 and 79541679412215 the amounts $5, $10, $50', () => {
    expect(plan(plans, '79541679412216').amount_options.map((o) => o.amount)).toEqual([83, 158, 744, 1400]);
    expect(plan(plans, '79541679412215').amount_options.map((o) => o.amount)).toEqual([5, 10, 50]);
    expect(plan(plans, '79541679412216').variable).toBe(true);
  });

  it('sells bigger bulk packs at a bigger discount', () => {
    const options = plan(plans, '79541679412216').amount_options;
    const perCredit = options.map((o) => o.amount / (o.credits ?? 1));
    expect([...perCredit].sort((a, b) => b - a)).toEqual(perCredit);
    expect(options.map((o) => o.percent_off)).toEqual([5, 10, 15, 20]);
  });

  it('names each plan its own way, none like an account without a plan ("Pay as you go")', () => {
    const names = plans.map((p) => p.plan_name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(NO_PLAN_NAME.toLowerCase());
    // The monthly plans' heading on Welcome, Plans and Purchase.
    expect(names).not.toContain('monthly plans');
  });

  it('has a $5 minimum purchase worth about 2,850 credits, and the default amounts 5, 10, 20, 50, 100', () => {
    const payg = plans.find((p) => p.plan_name === 'FLEXIBLE CREDITS');
    expect(payg?.plan_amount).toBe(5);
    expect(payg?.plan_credits).toBeGreaterThanOrEqual(2850);
    expect(payg?.plan_credits).toBeLessThan(2900);
    expect(payg?.amount_options.map((o) => o.amount)).toEqual([5, 10, 20, 50, 100]);
    const cheapest = Math.min(...plans.filter((p) => p.plan_type === 'prepaid').map((p) => p.plan_amount));
    expect(cheapest).toBe(5);
  });

  it('has the $1 card-verification intro: 500 credits plus a 200-credit bonus', () => {
    const intro = plans.filter((p) => p.plan_type === 'intro');
    expect(intro).toHaveLength(1);
    expect(intro[0]).toMatchObject({ plan_amount: 1, plan_credits: 500, bonus_credits: 200 });
  });
});

describe('GET /health and GET /config', () => {
  it('reports the version, the database and the reference-data versions', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    const health = HealthSchema.parse(res.json());
    expect(health).toMatchObject({ status: 'ok', database: { kind: 'pglite', ok: true } });
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(health.reference_data.nanpa_npa).toBe('2025-11-26');
  });

  it('tells clients the upload limit', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/config' });
    expect(res.json().limits.max_upload_bytes).toBeGreaterThan(0);
  });
});

describe('GET /openapi.json', () => {
  it('serves the whole API as OpenAPI 3.1, this service as its server, without sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: expect.stringMatching(/^http/) }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/verify', '/bulk/jobs', '/admin/users']),
    );
    expect(document.paths['/bulk/jobs'].post.operationId).toBe('createBulkJob');
  });
});

describe('bad input gets the error envelope and a 4xx, never a 500', () => {
  async function expectError(request: InjectOptions, status: number, code: string) {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(status);
    const body = ErrorEnvelopeSchema.parse(res.json());
    expect(body.error.code).toBe(code);
    expect(body.message).toBe(body.error.message);
    expect(body.error.request_id).toBe(res.headers['x-request-id']);
    return body;
  }

  it('unknown route: 404 naming the route', async () => {
    const body = await expectError({ method: 'GET', url: '/nope?x=1' }, 404, 'not_found');
    expect(body.message).toContain('GET /nope');
  });

  it('wrong method: 405 with the allowed methods', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/plans' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json().message).toContain('use GET');
  });

  it('a method no route serves (QUERY): 405 with Allow on a known path, 404 elsewhere', async () => {
    const known = await t.app.inject({ method: 'QUERY' as 'GET', url: '/plans' });
    expect(known.statusCode).toBe(405);
    expect(known.headers.allow).toBe('GET');
    const unknown = await t.app.inject({ method: 'QUERY' as 'GET', url: '/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });

  it('malformed JSON: 400 saying the body is not valid JSON', async () => {
    const body = await expectError(
      { method: 'POST', url: '/plans', headers: { 'content-type': 'application/json' }, payload: '{"a":' },
      400,
      'invalid_json',
    );
    expect(body.message).toMatch(/not valid JSON/);
  });

  it('empty JSON body: 400', async () => {
    await expectError(
      { method: 'POST', url: '/plans', headers: { 'content-type': 'application/json' }, payload: '' },
      400,
      'invalid_json',
    );
  });

  it('an oversized body: 413', async () => {
    await expectError(
      {
        method: 'POST',
        url: '/plans',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ x: 'a'.repeat(5000) }),
      },
      413,
      'payload_too_large',
    );
  });

  it('random methods, paths and bodies never produce a 500', async () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
    const paths = [
      '/plans',
      '/health',
      '/config',
      '/verify',
      '/%ff',
      '/plans/../../etc',
      `/${'x'.repeat(3000)}`,
      '/plans?x=%zz',
    ];
    const bodies = ['', '{}', '[]', 'null', '\u0000\u0001', '{"a":1}'.repeat(200), '%%%'];
    const types = [
      'application/json',
      'text/plain',
      'text/csv',
      'multipart/form-data',
      'application/octet-stream',
    ];
    for (const [i, method] of methods.entries()) {
      for (const [j, url] of paths.entries()) {
        const payload = bodies[(i + j) % bodies.length];
        const type = types[(i * 3 + j) % types.length];
        const res = await t.app.inject({
          method,
          url,
          ...(method === 'GET' ? {} : { payload, headers: { 'content-type': type } }),
        });
        expect(res.statusCode, `${method} ${url.slice(0, 40)} ${type}`).toBeLessThan(500);
      }
    }
  });
});
