import { ErrorEnvelopeSchema, UserInfoSchema } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIdentity, type Person, type TestIdentity } from '../../test/id-tokens.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { hashApiKey } from '../auth/api-keys.js';

let t: TestApp;
let id: TestIdentity;
beforeAll(async () => {
  id = await createTestIdentity();
  t = await createTestApp({ adminEmails: ['boss@example.com'] }, { tokenVerifier: id.verifier });
});
afterAll(() => t.close());

let people = 0;
/** A person nobody has seen yet, so each test starts from a fresh profile. */
const newPerson = (extra: Partial<Person> = {}): Person => {
  people++;
  return { sub: `sub-${people}`, email: `person${people}@example.com`, ...extra };
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(options: InjectOptions) {
  const res = await t.app.inject(options);
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

async function signIn(person: Person = newPerson()) {
  const headers = bearer(await id.token(person));
  const { body } = await call({ method: 'GET', url: '/user', headers });
  return { person, headers, user: UserInfoSchema.parse(body) };
}

async function expectUnauthorized(options: InjectOptions, code: string, message: RegExp) {
  const { status, body } = await call(options);
  expect(status).toBe(401);
  const envelope = ErrorEnvelopeSchema.parse(body);
  expect(envelope.error.code).toBe(code);
  expect(envelope.message).toMatch(message);
  return envelope;
}

describe('credentials', () => {
  it('refuses a call without credentials, saying what to send', async () => {
    await expectUnauthorized(
      { method: 'GET', url: '/user' },
      'unauthorized',
      /No credentials.*Bearer.*x-api-key/,
    );
  });

  it('answers 401 before looking at a bad body', async () => {
    await expectUnauthorized(
      { method: 'PUT', url: '/user', payload: { nonsense: true } },
      'unauthorized',
      /No credentials/,
    );
  });

  it.each([
    ['expired', { expiresIn: -30 }, 'token_expired', /expired/],
    [
      'from another issuer',
      { issuer: 'https://elsewhere.example/pool' },
      'unauthorized',
      /another identity provider/,
    ],
    ['for another app client', { audience: 'otherclient' }, 'unauthorized', /another app client/],
    ['signed by another key', { foreignKey: true }, 'unauthorized', /signature/],
    ['an access token', { tokenUse: 'access' as const }, 'unauthorized', /access token/],
  ])('refuses an ID token %s', async (_, options, code, message) => {
    const token = await id.token(newPerson(), options);
    const envelope = await expectUnauthorized(
      { method: 'GET', url: '/user', headers: bearer(token) },
      code,
      message,
    );
    expect(JSON.stringify(envelope)).not.toContain(token);
  });

  it('refuses alg none, HS256, malformed tokens and other schemes', async () => {
    const person = newPerson();
    await expectUnauthorized(
      { method: 'GET', url: '/user', headers: bearer(id.unsignedToken(person)) },
      'unauthorized',
      /RS256/,
    );
    await expectUnauthorized(
      { method: 'GET', url: '/user', headers: bearer(await id.hmacToken(person)) },
      'unauthorized',
      /RS256/,
    );
    await expectUnauthorized(
      { method: 'GET', url: '/user', headers: bearer('x.y.z') },
      'unauthorized',
      /malformed/,
    );
    await expectUnauthorized(
      { method: 'GET', url: '/user', headers: { authorization: 'Bearer' } },
      'unauthorized',
      /Bearer <ID token>/,
    );
    await expectUnauthorized(
      { method: 'GET', url: '/user', headers: { authorization: 'Basic dXNlcjpwYXNz' } },
      'unauthorized',
      /Bearer <ID token>/,
    );
    const rows = await t.database.db
      .selectFrom('profiles')
      .select('id')
      .where('sub', '=', person.sub)
      .execute();
    expect(rows).toEqual([]);
  });

  it('creates the profile on the first call, once, however many first calls race', async () => {
    const person = newPerson({ name: 'Rae Racer' });
    const headers = bearer(await id.token(person));
    const answers = await Promise.all(
      Array.from({ length: 15 }, () => call({ method: 'GET', url: '/user', headers })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(15).fill(200));
    expect(new Set(answers.map((a) => a.body.userId)).size).toBe(1);
    const rows = await t.database.db
      .selectFrom('profiles')
      .selectAll()
      .where('sub', '=', person.sub)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: person.email, user_name: 'Rae Racer', role: 'User', credits: 0 });
  });

  it.each([
    [['Admin'], 'Admin', 'admin'],
    [['agency'], 'Agency', 'user'],
    [['Super Admins', 'Agency'], 'Super Admin', 'admin'],
    [['beta-testers'], 'User', 'user'],
  ])('takes the role from the groups %j', async (groups, role, usertype) => {
    const { user } = await signIn(newPerson({ groups }));
    expect(user.role.name).toBe(role);
    expect(user.usertype).toBe(usertype);
  });

  it('makes the configured first admin Super Admin, but only with a verified e-mail', async () => {
    const verified = await signIn({ sub: 'sub-boss', email: 'Boss@Example.com' });
    expect(verified.user.role.name).toBe('Super Admin');
    const unverified = await signIn({
      sub: 'sub-boss-impostor',
      email: 'boss@example.com',
      emailVerified: false,
    });
    expect(unverified.user.role.name).toBe('User');
  });

  it('follows the groups of the newest token', async () => {
    const person = newPerson({ groups: ['Admin'] });
    expect((await signIn(person)).user.role.name).toBe('Admin');
    expect((await signIn({ ...person, groups: [] })).user.role.name).toBe('User');
  });
});

describe('API keys', () => {
  it('issues a key once, stores only its hash, and accepts it in x-api-key', async () => {
    const { headers, user } = await signIn();
    expect(user).toMatchObject({ api_key_id: null, api_key_last4: null, api_key_created_at: null });
    const { status, body } = await call({ method: 'PUT', url: '/apikey', headers });
    expect(status).toBe(200);
    expect(body.api_key).toMatch(/^scrub_[0-9A-Za-z]{40}$/);
    expect(body.last4).toBe(body.api_key.slice(-4));

    const stored = await t.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', body.api_key_id)
      .execute();
    expect(stored[0]?.key_hash).toBe(hashApiKey(body.api_key));
    const { rows } = await sql<{
      dump: string;
    }>`select string_agg(t::text, ' ') as dump from api_keys t`.execute(t.database.db);
    expect(rows[0]?.dump).not.toContain(body.api_key.slice('scrub_'.length, -4));

    const viaKey = await call({ method: 'GET', url: '/user', headers: { 'x-api-key': body.api_key } });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body).toMatchObject({
      userId: user.userId,
      api_key_id: body.api_key_id,
      api_key_last4: body.last4,
      api_key_created_at: body.created_at,
    });
    expect(viaKey.raw).not.toContain(body.api_key);
  });

  it('takes the k query parameter on /credits but not on /user', async () => {
    const { headers } = await signIn();
    const key = (await call({ method: 'PUT', url: '/apikey', headers })).body.api_key;
    expect((await call({ method: 'GET', url: `/credits?k=${key}` })).status).toBe(200);
    await expectUnauthorized(
      { method: 'GET', url: `/user?k=${key}` },
      'unauthorized',
      /k query parameter.*\/verify and \/credits/,
    );
  });

  it('rotation: the old key stops working at once and the new one works', async () => {
    const { headers } = await signIn();
    const first = (await call({ method: 'PUT', url: '/apikey', headers })).body;
    const second = (await call({ method: 'PUT', url: '/apikey', headers: { 'x-api-key': first.api_key } }))
      .body;
    expect(second.api_key).not.toBe(first.api_key);
    await expectUnauthorized(
      { method: 'GET', url: '/credits', headers: { 'x-api-key': first.api_key } },
      'invalid_api_key',
      /replaced by a newer key/,
    );
    await expectUnauthorized(
      { method: 'GET', url: `/credits?k=${first.api_key}` },
      'invalid_api_key',
      /not valid/,
    );
    expect(
      (await call({ method: 'GET', url: '/credits', headers: { 'x-api-key': second.api_key } })).status,
    ).toBe(200);
    const user = (await call({ method: 'GET', url: '/user', headers })).body;
    expect(user.api_key_id).toBe(second.api_key_id);
  });

  it('says a key is malformed, or unknown, without saying more', async () => {
    await expectUnauthorized(
      { method: 'GET', url: '/credits', headers: { 'x-api-key': 'hunter2' } },
      'invalid_api_key',
      /malformed/,
    );
    await expectUnauthorized(
      { method: 'GET', url: '/credits', headers: { 'x-api-key': `scrub_${'A'.repeat(40)}` } },
      'invalid_api_key',
      /never issued/,
    );
    await expectUnauthorized(
      { method: 'GET', url: '/credits', headers: bearer(`scrub_${'A'.repeat(40)}`) },
      'unauthorized',
      /x-api-key header/,
    );
  });

  it('uses the bearer token when both are sent, and does not fall back to the key', async () => {
    const { headers } = await signIn();
    const key = (await call({ method: 'PUT', url: '/apikey', headers })).body.api_key;
    const expired = await id.token(newPerson(), { expiresIn: -30 });
    await expectUnauthorized(
      { method: 'GET', url: '/user', headers: { ...bearer(expired), 'x-api-key': key } },
      'token_expired',
      /expired/,
    );
  });
});

describe('PUT /user', () => {
  it('changes the name, merges the address field by field, and sets purchase settings', async () => {
    const { headers } = await signIn();
    await call({
      method: 'PUT',
      url: '/user',
      headers,
      payload: { address: { line1: '1 Main St', city: 'Austin' } },
    });
    const { status, body } = await call({
      method: 'PUT',
      url: '/user',
      headers,
      payload: {
        user_name: '  Pat  ',
        address: { state: 'TX' },
        purchase_settings: { scrubs_amount: 500, is_scrub_enabled: true },
      },
    });
    expect(status).toBe(200);
    const user = UserInfoSchema.parse(body);
    expect(user.user_name).toBe('Pat');
    expect(user.displayName).toBe('Pat');
    expect(user.address).toEqual({
      line1: '1 Main St',
      line2: '',
      city: 'Austin',
      state: 'TX',
      country: 'US',
      postal_code: '',
    });
    expect(user.billing_info.customer_address).toEqual(user.address);
    expect(user.purchase_settings).toEqual({ scrubs_amount: 500, is_scrub_enabled: true });
  });

  it.each([
    [{ email: 'x@example.com' }, /email/],
    [{ user_name: '' }, /user_name/],
    [{ address: { country: 'USA' } }, /address\.country/],
    [
      { purchase_settings: { scrubs_amount: -1, is_scrub_enabled: true } },
      /purchase_settings\.scrubs_amount/,
    ],
  ])('refuses %j naming the field', async (payload, field) => {
    const { headers } = await signIn();
    const { status, body } = await call({ method: 'PUT', url: '/user', headers, payload });
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.message).toMatch(field);
  });
});

describe('plan pause and resume', () => {
  it('pauses and resumes the plan', async () => {
    const { headers } = await signIn();
    const paused = await call({
      method: 'PUT',
      url: '/user/plan-status',
      headers,
      payload: { status: 'paused' },
    });
    expect(paused).toMatchObject({ status: 200, body: { message: expect.stringMatching(/paused/) } });
    let user = (await call({ method: 'GET', url: '/user', headers })).body;
    expect(user.user_plan.plan_status).toBe('paused');
    expect(user.user_plan_status).toBe('paused');
    // The refusal names a command that works without a subscription (this account has none).
    const check = await call({ method: 'GET', url: '/verify?p=2023334444', headers });
    expect(check).toMatchObject({ status: 403, body: { error: { code: 'plan_paused' } } });
    expect(check.body.error.message).toMatch(/scrub account activate/);
    expect(check.body.error.message).not.toMatch(/subscription resume/);
    const resumed = await call({
      method: 'PUT',
      url: '/user/plan-status',
      headers,
      payload: { status: 'active' },
    });
    expect(resumed.body.message).toMatch(/active/);
    user = (await call({ method: 'GET', url: '/user', headers })).body;
    expect(user.user_plan_status).toBe('active');
  });

  it('refuses a status other than paused or active', async () => {
    const { headers } = await signIn();
    const { status, body } = await call({
      method: 'PUT',
      url: '/user/plan-status',
      headers,
      payload: { status: 'gone' },
    });
    expect(status).toBe(400);
    expect(body.error.issues[0].path).toBe('status');
  });
});

describe('GET /credits', () => {
  it('counts credits for a counted plan, with the plan named "Pay as you go" when there is none', async () => {
    const { headers, user } = await signIn();
    await applyLedgerEntry(t.database.db, { profileId: user.userId, delta: 1234, kind: 'grant' });
    const { body } = await call({ method: 'GET', url: '/credits', headers });
    expect(body).toEqual({
      credits: 1234,
      credits_remaining: 1234,
      has_unlimited: false,
      user_plan: { plan_reference: null, plan_status: 'active', plan_name: 'Pay as you go' },
      subscription_status: 'none',
    });
  });

  it("says 'unlimited' for an active unlimited plan, and counts again when it is paused or over", async () => {
    const { headers, user } = await signIn();
    const set = (values: {
      plan_reference?: string;
      plan_status?: 'active' | 'paused';
      plan_expires_at?: Date | null;
    }) => t.database.db.updateTable('profiles').set(values).where('id', '=', user.userId).execute();
    await set({ plan_reference: '79541679412214' });
    let credits = (await call({ method: 'GET', url: '/credits', headers })).body;
    expect(credits).toMatchObject({
      credits: 0,
      credits_remaining: 'unlimited',
      has_unlimited: true,
      user_plan: { plan_name: 'ELITE' },
    });
    const info = (await call({ method: 'GET', url: '/user', headers })).body;
    expect(info).toMatchObject({ credits_remaining: 'unlimited', has_unlimited: true, plan: 'ELITE' });

    await set({ plan_status: 'paused' });
    credits = (await call({ method: 'GET', url: '/credits', headers })).body;
    expect(credits).toMatchObject({ credits_remaining: 0, has_unlimited: false });

    await set({
      plan_status: 'active',
      plan_reference: '79541679412215',
      plan_expires_at: new Date(Date.now() - 1000),
    });
    credits = (await call({ method: 'GET', url: '/credits', headers })).body;
    expect(credits).toMatchObject({ has_unlimited: false, user_plan: { plan_reference: '79541679412215' } });
    const ends = new Date(Date.now() + 86_400_000);
    await set({ plan_expires_at: ends });
    expect((await call({ method: 'GET', url: '/credits', headers })).body.has_unlimited).toBe(true);
    // The pass's end, for the account page.
    expect((await call({ method: 'GET', url: '/user', headers })).body.plan_ends_at).toBe(ends.toISOString());
  });
});
