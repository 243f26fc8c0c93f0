import { BulkJobSchema, CreditHistoryPageSchema, FileListSchema, FileViewSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { poolSignUp } from '../../test/pool-accounts.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** 10 records: 4 distinct valid numbers, 3 duplicates of them, 3 rows without a valid number. */
const LEADS = [
  'Name,Phone',
  'a,2012345670',
  'b,2012345671',
  'c,2012345672',
  'd,2012345673',
  'e,(201) 234-5670',
  'f,201.234.5671',
  'g,2012345670',
  'h,123-456-7890',
  'i,not a number',
  'j,555',
].join('\n');

/** Issue 26, item 6: a job's credits reconcile with the balance, and the ledger is the credit history. */
describe.each(testDatabases())('credits a customer can reconcile on $kind', (kind) => {
  let t: TestApp;
  let boss: Record<string, string>;
  let people = 0;
  beforeAll(async () => {
    t = await createTestApp({ adminEmails: ['boss@example.com'] }, { database: await kind.open() });
    boss = bearer(await poolSignUp(t.app, t.database.db, t.config, 'boss@example.com'));
  }, 60_000);
  afterAll(() => t?.close());

  const call = async (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.body, headers: res.headers, json: () => res.json() };
  };

  /** A signed-in account granted `credits`, and its id. */
  async function account(credits: number) {
    const email = `credits${++people}@example.com`;
    const token = bearer(await poolSignUp(t.app, t.database.db, t.config, email));
    expect((await call('GET', '/user', token)).status).toBe(200);
    const { id } = await t.database.db
      .selectFrom('profiles')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await applyLedgerEntry(t.database.db, { profileId: id, delta: credits, kind: 'grant' });
    return { id, token };
  }

  const balance = async (headers: Record<string, string>) =>
    (await call('GET', '/credits', headers)).json().credits;

  async function scrub(headers: Record<string, string>) {
    const created = await call('POST', '/bulk/jobs', headers, {
      file_name: 'leads.csv',
      phone_col: 'Phone',
      csv_content: LEADS,
    });
    expect(created.status, created.body).toBe(201);
    const jobId = created.json().job_id as string;
    for (let i = 0; i < 200; i++) {
      const job = BulkJobSchema.parse((await call('GET', `/bulk/jobs/${jobId}`, headers)).json());
      if (job.status === 'completed' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the job never settled');
  }

  it("shows a job's credits as the ledger has them: charged, given back by reason, net = the balance's fall", async () => {
    const user = await account(100);
    const job = await scrub(user.token);
    expect(job).toMatchObject({
      status: 'completed',
      duplicates: 3,
      credits_charged: 10,
      credits_reversed: 6,
    });
    const credits = {
      charged: 10,
      given_back: { duplicates: 3, invalid: 3, unanswered_lookups: 0, failed_or_cut: 0, unspecified: 0 },
      given_back_total: 6,
      net: 4,
    };
    expect(job.credits).toEqual(credits);
    expect(100 - (await balance(user.token))).toBe(credits.net);

    const list = FileListSchema.parse((await call('GET', '/files', user.token)).json());
    expect(list.files[0]?.credits).toEqual(credits);
    const file = FileViewSchema.parse((await call('GET', `/files/${job.file_reference}`, {})).json());
    expect(file.credits).toEqual(credits);
  });

  it('lists every ledger entry with its running balance, newest first, paged and by month, and as CSV', async () => {
    const user = await account(100);
    const job = await scrub(user.token);
    const page = CreditHistoryPageSchema.parse((await call('GET', '/credits/history', user.token)).json());
    expect(page.total).toBe(4);
    expect(
      page.entries.map(({ label, kind, delta, balance_after, reason, reference }) => ({
        label,
        kind,
        delta,
        balance_after,
        reason,
        reference,
      })),
    ).toEqual([
      {
        label: 'Given back',
        kind: 'reversal',
        delta: 3,
        balance_after: 96,
        reason: 'invalid',
        reference: job.job_id,
      },
      {
        label: 'Given back',
        kind: 'reversal',
        delta: 3,
        balance_after: 93,
        reason: 'duplicates',
        reference: job.job_id,
      },
      {
        label: 'Bulk job',
        kind: 'bulk_charge',
        delta: -10,
        balance_after: 90,
        reason: null,
        reference: job.job_id,
      },
      {
        label: 'Credits granted',
        kind: 'grant',
        delta: 100,
        balance_after: 100,
        reason: null,
        reference: null,
      },
    ]);

    const second = CreditHistoryPageSchema.parse(
      (await call('GET', '/credits/history?limit=3&page=2', user.token)).json(),
    );
    expect(second).toMatchObject({ page: 2, limit: 3, total_pages: 2, total: 4 });
    expect(second.entries.map((entry) => entry.kind)).toEqual(['grant']);

    const month = new Date().toISOString().slice(0, 7);
    expect((await call('GET', `/credits/history?month=${month}`, user.token)).json().total).toBe(4);
    expect((await call('GET', '/credits/history?month=2020-01', user.token)).json()).toMatchObject({
      total: 0,
      entries: [],
    });
    expect((await call('GET', '/credits/history?month=2020-13', user.token)).status).toBe(400);

    const csv = await call('GET', `/credits/history.csv?month=${month}`, user.token);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain(`credit-history-${month}.csv`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Date,Entry,Kind,Credits,Balance,Reason,Reference,Note');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(',Given back,reversal,3,96,invalid,');
    expect(lines[4]).toContain(',Credits granted,grant,100,100,,,');
    expect(
      (await call('GET', '/credits/history.csv?month=2020-01', user.token)).body.trim().split('\r\n'),
    ).toHaveLength(1);
  });

  it("shows an auto top-up's note, and an admin acting as the account reads the account's history", async () => {
    const user = await account(5);
    await applyLedgerEntry(t.database.db, {
      profileId: user.id,
      delta: 50,
      kind: 'purchase',
      reference: 'pi_1',
      note: 'Auto top-up: 50 credits',
    });
    const act = (await call('POST', `/admin/users/${user.id}/act-as`, boss)).json();
    const page = CreditHistoryPageSchema.parse(
      (await call('GET', '/credits/history', bearer(act.token))).json(),
    );
    expect(page.entries[0]).toMatchObject({
      label: 'Auto top-up',
      kind: 'purchase',
      delta: 50,
      balance_after: 55,
      note: 'Auto top-up: 50 credits',
    });
    expect(page.total).toBe(2);
  });
});
