import { type RouteSpec, routes } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { createTestIdentity } from '../../test/id-tokens.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

const address = {
  customer_name: 'Ada Buyer',
  line1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postal_code: '07102',
};

/** Ids a caller may send: names of an object's own properties, and stray `%` signs. */
const ODD_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'pm_%', '%', 'a%zz'];

/**
 * Cards and ids on the built-in payment provider, PGlite and PostgreSQL: the default card is
 * picked among the saved ones only, a refused card setup adds nothing, and no id a caller chooses
 * makes a 500.
 */
describe.each(testDatabases())('payment security on $kind', (database: TestDatabase) => {
  let t: TestApp;
  let accounts = 0;
  let admin: Record<string, string>;

  beforeAll(async () => {
    const id = await createTestIdentity();
    t = await createTestApp({}, { tokenVerifier: id.verifier, database: await database.open() });
    // The service reaches its built-in provider over HTTP, as it would Stripe.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    admin = {
      authorization: `Bearer ${await id.token({ sub: 'pay-admin', email: 'admin@pay.example', groups: ['Super Admin'] })}`,
    };
    expect((await t.app.inject({ method: 'GET', url: '/user', headers: admin })).statusCode).toBe(200);
  }, 60_000);
  afterAll(() => t?.close());

  async function account() {
    accounts++;
    const profile = await ensureProfile(t.database.db, {
      sub: `paysec-${accounts}`,
      email: `paysec${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    const { api_key } = await rotateApiKey(t.database.db, profile.id);
    return { profileId: profile.id, key: api_key };
  }
  async function call(key: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    const res = await t.app.inject({ method, url, payload, headers: { 'x-api-key': key } });
    return { status: res.statusCode, body: res.json() };
  }
  const customerExists = async (key: string) => (await call(key, 'GET', '/customer/exists')).body.exists;

  it('PUT /payment-method picks only among saved cards: any other id is a 404, and nothing is charged to it', async () => {
    const a = await account();
    expect(
      (await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' })).status,
    ).toBe(200);
    const [visa] = (await call(a.key, 'GET', '/payment-methods')).body.payment_methods;
    for (const id of ['pm_card_mastercard', 'pm_card_visa', 'pm_never_made']) {
      const refused = await call(a.key, 'PUT', '/payment-method', { payment_method_id: id });
      expect(refused.status, id).toBe(404);
      expect(refused.body.message).toMatch(/not one of the saved cards of this account/);
    }
    // Another account's saved card is not this account's either.
    const b = await account();
    await call(b.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' });
    expect((await call(b.key, 'PUT', '/payment-method', { payment_method_id: visa.id })).status).toBe(404);
    const cards = (await call(a.key, 'GET', '/payment-methods')).body.payment_methods;
    expect(cards).toEqual([{ ...visa, is_default: true }]);
    expect((await call(a.key, 'PUT', '/payment-method', { payment_method_id: visa.id })).status).toBe(200);
  });

  it('a refused POST /payment/setup creates no payment customer', async () => {
    const a = await account();
    const refusals = [
      { ...address, payment_method_id: 'pm_card_chargeDeclined' },
      { ...address, payment_method_id: 'pm_never_made' },
      { ...address, payment_method_id: 'pm_card_visa', reference_code: 'no-such-plan' },
    ];
    for (const body of refusals) {
      const res = await call(a.key, 'POST', '/payment/setup', body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      expect(await customerExists(a.key), JSON.stringify(body)).toBe(false);
    }
    expect(
      (await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' })).status,
    ).toBe(200);
    expect(await customerExists(a.key)).toBe(true);
  });

  it.each(ODD_IDS)('card id %j is refused, never a 500, before and after a card is saved', async (id) => {
    const a = await account();
    for (let round = 0; round < 2; round++) {
      const setup = await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: id });
      expect(setup.status, JSON.stringify(setup.body)).toBeGreaterThanOrEqual(400);
      expect(setup.status, JSON.stringify(setup.body)).toBeLessThan(500);
      const change = await call(a.key, 'PUT', '/payment-method', { payment_method_id: id });
      expect(change.status, JSON.stringify(change.body)).toBeGreaterThanOrEqual(400);
      expect(change.status, JSON.stringify(change.body)).toBeLessThan(500);
      await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' });
    }
  });

  it.each(ODD_IDS)('id %j in the path of every route that takes one is answered, never a 500', async (id) => {
    const a = await account();
    const failures: string[] = [];
    for (const [name, route] of Object.entries(routes) as [string, RouteSpec][]) {
      if (!route.path.includes('{') || route.planned) continue;
      const url = route.path.replace(/\{\w+\}/g, encodeURIComponent(id));
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      for (const headers of [admin, { 'x-api-key': a.key }]) {
        const res = await t.app.inject({
          method: route.method,
          url,
          headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: '{}' } : {}),
        });
        if (res.statusCode >= 500) failures.push(`${name} ${url}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
