import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { FREE_TEST_CHECKS_PER_DAY } from '../checks/test-checks.js';

/** Seed 001: "Testing one number via the API page costs 1 credit unless the user has an active subscription." */
describe.each(testDatabases())('the API page’s test check (GET /verify?test=1) on $kind', (kind) => {
  let t: TestApp;
  let accounts = 0;
  beforeAll(async () => {
    t = await createTestApp({}, { database: await kind.open() });
  });
  afterAll(() => t?.close());

  /** An account with 100 credits, on a monthly plan whose subscription is in `status`, or none. */
  async function account(subscription: { plan: string; status: 'active' | 'past_due' | 'paused' } | null) {
    accounts++;
    const db = t.database.db;
    const { id } = await ensureProfile(db, {
      sub: `test-check-${accounts}`,
      email: `testcheck${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: id, delta: 100, kind: 'grant' });
    if (subscription) {
      await db
        .updateTable('profiles')
        .set({
          plan_reference: subscription.plan,
          subscription_id: `sub_test_${accounts}`,
          subscription_status: subscription.status,
        })
        .where('id', '=', id)
        .execute();
    }
    const { api_key } = await rotateApiKey(db, id);
    return { 'x-api-key': api_key };
  }

  const check = async (headers: Record<string, string>, query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/verify?${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { credits_deducted?: number; credits_remaining?: number };
  };

  it.each([
    ['STANDARD', '79541679412211'],
    ['POWER', '79541679412212'],
  ])('is free for an active %s subscriber; a check without test=1 is charged', async (_name, plan) => {
    const headers = await account({ plan, status: 'active' });
    expect(await check(headers, 'p=2023334444&test=1')).toMatchObject({
      credits_deducted: 0,
      credits_remaining: 100,
    });
    expect(await check(headers, 'p=2023334445')).toMatchObject({
      credits_deducted: 1,
      credits_remaining: 99,
    });
  });

  it('costs 1 credit without a subscription, or with one that is not active', async () => {
    for (const subscription of [null, { plan: '79541679412211', status: 'past_due' as const }]) {
      const headers = await account(subscription);
      expect(await check(headers, 'p=2023334444&test=1')).toMatchObject({
        credits_deducted: 1,
        credits_remaining: 99,
      });
    }
  });

  it(`is free ${FREE_TEST_CHECKS_PER_DAY} times a day, then charged as any check`, async () => {
    const headers = await account({ plan: '79541679412211', status: 'active' });
    for (let i = 0; i < FREE_TEST_CHECKS_PER_DAY; i++) {
      const number = `20233${String(50_000 + i)}`;
      expect((await check(headers, `p=${number}&test=1`)).credits_deducted).toBe(0);
    }
    expect(await check(headers, 'p=2023339999&test=1')).toMatchObject({
      credits_deducted: 1,
      credits_remaining: 99,
    });
  });
});
