import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

const STANDARD = '79541679412211';
const address = { customer_name: 'Ada Buyer', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe('DELETE /payment-methods/{payment_method_id} on the built-in provider', () => {
  let t: TestApp;
  let accounts = 0;

  beforeAll(async () => {
    t = await createTestApp();
    // The built-in provider answers on the service's own port, as in production.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(() => t?.close());

  async function account() {
    accounts++;
    const profile = await ensureProfile(t.database.db, {
      sub: `remove-${accounts}`,
      email: `remove${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    return (await rotateApiKey(t.database.db, profile.id)).api_key;
  }

  async function call(key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
    const res = await t.app.inject({ method, url, payload, headers: { 'x-api-key': key } });
    return { status: res.statusCode, body: res.json() };
  }

  const cards = async (key: string) =>
    (await call(key, 'GET', '/payment-methods')).body.payment_methods as {
      id: string;
      is_default: boolean;
    }[];

  async function save(key: string, pm: string) {
    const res = await call(key, 'POST', '/payment/setup', { ...address, payment_method_id: pm });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it('removes a saved card; the other one becomes the default; another account cannot remove it', async () => {
    const key = await account();
    await save(key, 'pm_card_visa');
    await save(key, 'pm_card_mastercard');
    const [newest, older] = await cards(key);
    expect(newest?.is_default).toBe(true);

    const stranger = await account();
    const refused = await call(stranger, 'DELETE', `/payment-methods/${newest?.id}`);
    expect(refused).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });

    const removed = await call(key, 'DELETE', `/payment-methods/${newest?.id}`);
    expect(removed).toMatchObject({
      status: 200,
      body: { message: expect.stringMatching(/^Card Removed Successfully/) },
    });
    expect(await cards(key)).toEqual([expect.objectContaining({ id: older?.id, is_default: true })]);
    expect((await call(key, 'GET', '/payment-methods/exists')).body).toEqual({ exists: true });

    await call(key, 'DELETE', `/payment-methods/${older?.id}`);
    expect(await cards(key)).toEqual([]);
    expect((await call(key, 'GET', '/payment-methods/exists')).body).toEqual({ exists: false });
  });

  it('keeps the last card while a monthly plan is billed to it', async () => {
    const key = await account();
    await save(key, 'pm_card_visa');
    expect((await call(key, 'POST', '/subscription', { price_id: STANDARD })).status).toBe(200);
    const [only] = await cards(key);
    const refused = await call(key, 'DELETE', `/payment-methods/${only?.id}`);
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(refused.body.error.message).toMatch(/monthly plan/);
    expect(await cards(key)).toHaveLength(1);
  });
});
