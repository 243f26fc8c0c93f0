import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { poolSignUp } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { checkLogSweep } from '../checks/check-log.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Issue 26: every single check is kept in the phone log, listed, filtered and exported. */
describe.each(testDatabases())('the phone log (GET /checks) on $kind', (kind) => {
  let t: TestApp;
  let boss: Record<string, string>;
  let people = 0;
  beforeAll(async () => {
    t = await createTestApp({ adminEmails: ['boss@example.com'] }, { database: await kind.open() });
    boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
  }, 60_000);
  afterAll(() => t?.close());

  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.body, json: () => res.json() };
  };

  /** A signed-in account with 100 credits, its API key and its id. */
  async function account() {
    const email = `log${++people}@example.com`;
    const token = bearer(await poolSignUp(t.app, t.database.db, t.config, email));
    const me = (await call('GET', '/user', token)).json();
    const id = (
      await t.database.db
        .selectFrom('profiles')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 100, kind: 'grant' });
    const key = (await call('PUT', '/apikey', token)).json().api_key as string;
    return { id, email, me, token, key: { 'x-api-key': key } };
  }

  const log = async (headers: Record<string, string>, query = '') => {
    const res = await call('GET', `/checks${query}`, headers);
    expect(res.status, res.body).toBe(200);
    return res.json();
  };

  it('keeps every check with its answer, how it came in and its credits, newest first', async () => {
    const user = await account();
    expect((await call('GET', '/verify?p=2012345678', user.key)).status).toBe(200);
    expect((await call('GET', '/verify?p=2012345678', user.key)).status).toBe(200);
    expect((await call('POST', '/verify', user.key, { phones: ['2015550123', 'not a number'] })).status).toBe(
      200,
    );
    expect((await call('GET', '/verify?p=2016660000', user.token)).status).toBe(200);
    const act = (await call('POST', `/admin/users/${user.id}/act-as`, boss)).json();
    expect((await call('GET', '/verify?p=2017770000&test=1', bearer(act.token))).status).toBe(200);

    const page = await log(user.token);
    expect(page.total).toBe(6);
    const keyId = (
      await t.database.db
        .selectFrom('api_keys')
        .select('id')
        .where('profile_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).id;
    const bossId = (
      await t.database.db
        .selectFrom('profiles')
        .select('id')
        .where('email', '=', 'boss@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    expect(page.checks.map((c: { input: string }) => c.input)).toEqual([
      '2017770000',
      '2016660000',
      expect.any(String),
      expect.any(String),
      '2012345678',
      '2012345678',
    ]);
    const [acted, signedIn] = page.checks;
    expect(acted).toMatchObject({
      kind: 'test',
      source: 'act_as',
      acting_admin_id: bossId,
      api_key_id: null,
    });
    expect(signedIn).toMatchObject({
      kind: 'single',
      source: 'token',
      credits: 1,
      phone_number: '+12016660000',
    });
    const batch = page.checks.slice(2, 4);
    expect(batch.map((c: { input: string }) => c.input).sort()).toEqual(['2015550123', 'not a number']);
    const invalid = batch.find((c: { input: string }) => c.input === 'not a number');
    expect(invalid).toMatchObject({ kind: 'batch', line_type: 'invalid', credits: 0, api_key_id: keyId });
    expect(invalid.answer.invalid_reason).toBeTruthy();
    const [repeat, first] = page.checks.slice(4);
    expect(first).toMatchObject({
      kind: 'single',
      source: 'api_key',
      cached: false,
      credits: 1,
      api_key_id: keyId,
    });
    expect(repeat).toMatchObject({ cached: true, credits: 0 });
    expect(first.answer).toHaveProperty('data_source');
    // Every field of the answer is listed, the null and empty ones too (the log stores them left out).
    expect(first.answer).toMatchObject({
      line_type_source: expect.any(String),
      invalid_reason: null,
      extension: null,
      dnc_sources: [],
      carrier_lookup: null,
      ported: null,
    });
    expect(first.answer).not.toHaveProperty('reassigned');

    // Written as sent, whatever it holds (the embedded database copies rows in as text).
    const odd = 'a\tb\\c\nd\re "x", \\N';
    expect((await call('POST', '/verify', user.key, { phones: [odd] })).status).toBe(200);
    expect((await log(user.token)).checks[0]).toMatchObject({ input: odd, phone_number: odd });

    // Nobody else sees them.
    const other = await account();
    expect((await log(other.token)).total).toBe(0);
  });

  it('filters by number, line type, DNC, dates and source, pages, and exports CSV', async () => {
    const user = await account();
    for (const p of ['2012340001', '2012340002', '2012340003', '123'])
      expect((await call('GET', `/verify?p=${p}`, user.key)).status).toBe(200);
    expect((await call('GET', '/verify?p=2019990000', user.token)).status).toBe(200);

    expect(
      (await log(user.token, '?number=(201) 234-0002')).checks.map((c: { input: string }) => c.input),
    ).toEqual(['2012340002']);
    expect((await log(user.token, '?line_type=invalid')).total).toBe(1);
    expect((await log(user.token, '?source=token')).checks[0].input).toBe('2019990000');
    expect((await log(user.token, '?dnc=1')).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await log(user.token, `?from=${today}&to=${today}`)).total).toBe(5);
    expect((await log(user.token, '?to=2020-01-01')).total).toBe(0);
    const second = await log(user.token, '?limit=2&page=2');
    expect(second).toMatchObject({ page: 2, limit: 2, total: 5, total_pages: 3 });
    expect(second.checks.map((c: { input: string }) => c.input)).toEqual(['2012340003', '2012340002']);

    const bad = await call('GET', '/checks?from=2026-02-01&to=2026-01-01', user.token);
    expect(bad.status).toBe(400);

    const csv = await call('GET', '/checks.csv?source=api_key', user.token);
    expect(csv.status).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Checked At,Input,Phone Number,Line Type,DNC,Cached,Credits,Kind,Source,API Key Id,Acting Admin Id',
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(',123,123,invalid,');

    // `Accept: text/csv` on GET /checks answers the same CSV; JSON first still answers JSON.
    const asked = await call('GET', '/checks?source=api_key&limit=1', { ...user.token, accept: 'text/csv' });
    expect(asked.status).toBe(200);
    expect(asked.body).toBe(csv.body);
    const both = await call('GET', '/checks', { ...user.token, accept: 'application/json, text/csv' });
    expect(both.json().total).toBe(5);
  });

  it('keeps checks SCRUB_CHECK_LOG_DAYS days: the expiry sweep removes older ones', async () => {
    const user = await account();
    expect((await call('GET', '/verify?p=2018880000', user.key)).status).toBe(200);
    await t.app.inject({ method: 'GET', url: '/checks', headers: user.token });
    const sweep = checkLogSweep(t.database.db, t.config.checkLogDays);
    expect(t.config.checkLogDays).toBe(90);
    expect(await sweep.remove(new Date(Date.now() + 89 * 86_400_000))).toBe(0);
    expect(await sweep.remove(new Date(Date.now() + 91 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await log(user.token)).total).toBe(0);
  });
});
