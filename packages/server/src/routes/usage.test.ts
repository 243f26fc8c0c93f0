import { BulkJobSchema, CreatedBulkJobSchema, ManagedUserSchema, UsageReportSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { poolSignIn, poolSignUp, TEST_PASSWORD } from '../../test/pool-accounts.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const today = () => new Date().toISOString().slice(0, 10);

const LEADS = [
  'Name,Phone',
  'Ann,(201) 234-5678',
  'Bob,201.234.5678',
  'Cid,800-555-1234',
  'Dee,123-456-7890',
].join('\r\n');

/** Issue 26, Client Performance: usage figures are the account's real traffic. */
describe.each(testDatabases())('usage (GET /usage) on $kind', (kind) => {
  let t: TestApp;
  let boss: Headers;
  let people = 0;
  beforeAll(async () => {
    t = await createTestApp(
      {
        adminEmails: ['boss@example.com'],
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
      },
      { database: await kind.open() },
    );
    boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
  }, 60_000);
  afterAll(() => t?.close());

  const call = async (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    headers: Headers,
    payload?: object | string,
  ) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.body, headers: res.headers, json: () => res.json() };
  };

  /** An account made by `by` (an admin or an Agency) with `ut` (`user`, `agency`), 100 credits and an API key. */
  async function account(ut: 'user' | 'agency', by = boss) {
    const le = `usage${++people}@example.com`;
    const created = await call('POST', '/admin/users', by, {
      le,
      lp: TEST_PASSWORD,
      lp_confirm: TEST_PASSWORD,
      ut,
    });
    expect(created.status, created.body).toBe(201);
    const { user_id: id } = ManagedUserSchema.parse(created.json());
    await applyLedgerEntry(t.database.db, { profileId: id, delta: 100, kind: 'grant' });
    const token = bearer(await poolSignIn(t.app, t.config, le));
    const key = { 'x-api-key': (await call('PUT', '/apikey', token)).json().api_key as string };
    return { id, email: le, token, key };
  }

  const usage = async (headers: Headers, query = '') => {
    const res = await call('GET', `/usage${query}`, headers);
    expect(res.status, res.body).toBe(200);
    return UsageReportSchema.parse(res.json());
  };

  async function bulkJob(headers: Headers) {
    const created = await call('POST', '/bulk/jobs', headers, { file_name: 'leads.csv', phone_col: 'Phone' });
    expect(created.status, created.body).toBe(201);
    const job = CreatedBulkJobSchema.parse(created.json());
    const url = new URL(job.upload_url!);
    const put = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'text/csv' },
      payload: LEADS,
    });
    expect(put.statusCode).toBe(200);
    expect((await call('POST', `/bulk/jobs/${job.job_id}/submit`, headers)).status).toBe(200);
    for (let i = 0; i < 200; i++) {
      const done = BulkJobSchema.parse((await call('GET', `/bulk/jobs/${job.job_id}`, headers)).json());
      if (done.status === 'completed') return done;
      expect(done.status).not.toBe('failed');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job never completed');
  }

  /** Real traffic: two key checks (the second cached), two signed-in checks against the account's
   * own do-not-call list (one listed), a batch of two (one invalid) and a bulk job of four rows. */
  async function traffic(who: Awaited<ReturnType<typeof account>>) {
    expect((await call('POST', '/dnc/numbers', who.token, { numbers: ['2024440111'] })).status).toBe(200);
    expect((await call('GET', '/verify?p=2012345678', who.key)).status).toBe(200);
    expect((await call('GET', '/verify?p=2012345678', who.key)).json().cached).toBe(true);
    expect((await call('GET', '/verify?p=2024440111', who.token)).json().dnc).toBe(1);
    expect((await call('GET', '/verify?p=2024440113', who.token)).json().dnc).toBe(0);
    expect((await call('POST', '/verify', who.key, { phones: ['2015550123', 'not a number'] })).status).toBe(
      200,
    );
    return bulkJob(who.key);
  }

  it("counts an account's checks by source, its line types, DNC hits, credits, jobs, cached and free answers", async () => {
    const user = await account('user');
    const job = await traffic(user);
    await applyLedgerEntry(t.database.db, {
      profileId: user.id,
      delta: 500,
      kind: 'purchase',
      reference: 'pi_1',
    });

    const report = await usage(user.token);
    expect(report).toMatchObject({ to: today(), interval: 'day' });
    expect(report.intervals).toHaveLength(30);
    expect(report.accounts).toEqual([
      expect.objectContaining({ id: user.id, email: user.email, role: 'User' }),
    ]);
    const { total } = report;
    expect(total.checks).toEqual({ api_key: 2, dashboard: 2, batch: 2, bulk: 4, total: 10 });
    expect(Object.values(total.line_types).reduce((a, b) => a + b, 0)).toBe(10);
    expect(total.line_types.invalid).toBeGreaterThanOrEqual(2);
    expect(total.line_types.toll_free).toBe(1);
    // The account's own list covers its signed-in checks after it was made: one of two listed.
    expect(total.dnc.checked).toBeGreaterThanOrEqual(2);
    expect(total.dnc.hits).toBe(1);
    expect(total.dnc.hit_rate).toBeCloseTo(1 / total.dnc.checked);
    const balance = (await ledgerTotals(t.database.db, user.id)).balance;
    expect(total.credits).toEqual({ spent: 100 + 500 - balance, bought: 500 });
    expect(total.credits.spent).toBeGreaterThan(0);
    expect(total.jobs).toBe(1);
    expect(job.processed_rows).toBe(4);
    expect(total.cached).toBe(1);
    expect(total.free).toBeGreaterThanOrEqual(1);
    // Everything happened today: the last interval holds it all, the others are empty.
    expect(report.intervals.at(-1)).toEqual({ start: today(), ...total });
    expect(report.intervals[0]!.checks.total).toBe(0);

    const weekly = await usage(user.key, '?interval=week');
    expect(weekly.intervals).toHaveLength(12);
    expect(weekly.total).toEqual(total);
    expect(new Date(`${weekly.intervals.at(-1)!.start}T00:00:00Z`).getUTCDay()).toBe(1);

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await usage(user.token, `?from=${yesterday}&to=${yesterday}`)).total.checks.total).toBe(0);
  });

  it("shows an Agency each client's usage and the total; an admin any account's; a User only its own", async () => {
    const agency = await account('agency');
    const client = await account('user', agency.token);
    const quiet = await account('user', agency.token);
    const stranger = await account('user');
    await traffic(client);
    expect((await call('GET', '/verify?p=2012345678', agency.key)).status).toBe(200);
    expect((await call('GET', '/verify?p=2012345678', stranger.key)).status).toBe(200);

    const all = await usage(agency.token);
    expect(all.accounts[0]!.id).toBe(agency.id);
    expect(all.accounts.map((a) => a.id).sort()).toEqual([agency.id, client.id, quiet.id].sort());
    const figures = Object.fromEntries(all.accounts.map((a) => [a.id, a.figures]));
    expect(figures[agency.id]!.checks.total).toBe(1);
    expect(figures[client.id]!.checks.total).toBe(10);
    expect(figures[quiet.id]!.checks.total).toBe(0);
    expect(all.total.checks.total).toBe(11);
    expect(all.total.jobs).toBe(1);

    const one = await usage(agency.token, `?account=${client.id}`);
    expect(one.accounts.map((a) => a.id)).toEqual([client.id]);
    expect(one.total).toEqual(figures[client.id]);
    expect((await usage(boss, `?account=${client.id}`)).total).toEqual(figures[client.id]);
    expect((await usage(boss, `?account=${agency.id}`)).total).toEqual(all.total);

    expect((await call('GET', `/usage?account=${stranger.id}`, agency.token)).status).toBe(404);
    expect((await call('GET', `/usage?account=${agency.id}`, client.token)).status).toBe(403);
    expect((await call('GET', `/usage?account=${crypto.randomUUID()}`, boss)).status).toBe(404);
    expect((await call('GET', '/usage?account=nope', boss)).status).toBe(400);
    expect((await call('GET', '/usage?from=2020-01-01&to=2026-01-01', boss)).status).toBe(400);
    expect((await call('GET', '/usage?from=2026-02-01&to=2026-01-01', boss)).status).toBe(400);

    const csv = await call('GET', '/usage.csv?from=2026-01-05&to=2026-01-06', agency.token);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/^Account,Start,Checks,API Key,Dashboard,Batch,Bulk Rows,Line Type mobile,/);
    // Three accounts and the total, two days each.
    expect(lines).toHaveLength(1 + 4 * 2);
    expect(lines.at(-1)).toMatch(/^All accounts,2026-01-06,0,/);
    // `Accept: text/csv` on GET /usage answers the same CSV; JSON first still answers JSON.
    const asked = await call('GET', '/usage?from=2026-01-05&to=2026-01-06', {
      ...agency.token,
      accept: 'text/csv',
    });
    expect(asked.status).toBe(200);
    expect(asked.headers['content-type']).toMatch(/text\/csv/);
    expect(asked.body).toBe(csv.body);
    const both = await call('GET', '/usage', { ...agency.token, accept: 'application/json, text/csv' });
    expect(UsageReportSchema.parse(both.json()).total).toEqual(all.total);
    const todays = (await call('GET', '/usage.csv', client.token)).body
      .trim()
      .split('\r\n')
      .at(-1)!
      .split(',');
    expect(todays.slice(0, 7)).toEqual([client.email, today(), '10', '2', '2', '2', '4']);
  });
});
