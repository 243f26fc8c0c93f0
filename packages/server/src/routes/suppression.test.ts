import {
  BulkJobSchema,
  DncChangeSchema,
  DncNumberListSchema,
  DncSummarySchema,
  ErrorEnvelopeSchema,
  MAX_DNC_NUMBERS_PER_CALL,
} from '@scrub/contract';
import { DncListBuilder, DncSet, sampleExchangeTable } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { InternalDncLists, ReferenceData } from '../reference-data/reference-data.js';

const listOf = (name: string, numbers: number[]) => {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build('v1', RELEASED_TODAY);
};

describe.each(testDatabases())("an account's own suppression list on $kind", (database) => {
  let t: TestApp;
  let referenceData: ReferenceData;
  let accounts = 0;

  beforeAll(async () => {
    referenceData = new ReferenceData({ exchange: sampleExchangeTable(), dnc: new DncSet() });
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: await database.open(), referenceData },
    );
  });
  afterAll(() => t?.close());

  async function account(credits = 20) {
    accounts++;
    const db = t.database.db;
    const { id } = await ensureProfile(db, {
      sub: `suppress-${accounts}`,
      email: `suppress${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, id);
    return { profileId: id, headers: { 'x-api-key': api_key } };
  }

  type Headers = Record<string, string>;
  const call = (headers: Headers, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const add = async (headers: Headers, numbers: string[]) => {
    const res = await call(headers, 'POST', '/dnc/numbers', { numbers });
    expect(res.statusCode).toBe(200);
    return DncChangeSchema.parse(res.json());
  };
  const verify = async (headers: Headers, p: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/verify', query: { p }, headers });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('adds numbers as people write them, answers unreadable ones by index, and counts them from the next check', async () => {
    const { headers } = await account();
    // Checked before: no list covers it, so no answer may call it clean.
    expect(await verify(headers, '2024440111')).toMatchObject({ dnc: null, dnc_lists_checked: [] });

    const change = await add(headers, ['(202) 444-0111', '+1 202 444 0112', '202444011', '2024440111']);
    expect(change).toMatchObject({ changed: 2, unchanged: 0, rejected_count: 1 });
    expect(change.rejected).toEqual([
      expect.objectContaining({ index: 2, input: '202444011', reason: expect.any(String) }),
    ]);
    expect(change.summary).toMatchObject({ count: 2, operator_count: 0, list_name: 'internal' });

    // Not the cached "unchecked" answer: the list changed, so the answer is fresh.
    expect(await verify(headers, '2024440111')).toMatchObject({
      dnc: 1,
      cached: false,
      dnc_sources: ['internal'],
      dnc_lists_checked: ['internal'],
    });
    // The list covers every number: one not on it is checked, and clean.
    expect(await verify(headers, '2024440113')).toMatchObject({
      dnc: 0,
      dnc_sources: [],
      dnc_lists_checked: ['internal'],
    });
    expect((await add(headers, ['2024440112'])).unchanged).toBe(1);
  });

  it('removes numbers: the next check no longer finds them', async () => {
    const { headers } = await account();
    await add(headers, ['2024440121', '2024440122']);
    expect((await verify(headers, '2024440121')).dnc).toBe(1);
    const res = await call(headers, 'POST', '/dnc/numbers/remove', {
      numbers: ['202-444-0121', '2024440199'],
    });
    expect(res.statusCode).toBe(200);
    expect(DncChangeSchema.parse(res.json())).toMatchObject({
      changed: 1,
      unchanged: 1,
      summary: { count: 1 },
    });
    expect(await verify(headers, '2024440121')).toMatchObject({ dnc: 0, dnc_sources: [] });
    expect((await verify(headers, '2024440122')).dnc).toBe(1);
  });

  it("never consults or shows another account's list", async () => {
    const me = await account();
    const other = await account();
    await add(other.headers, ['2024440131']);
    expect(await verify(me.headers, '2024440131')).toMatchObject({ dnc: null, dnc_sources: [] });
    const list = DncNumberListSchema.parse((await call(me.headers, 'GET', '/dnc/numbers')).json());
    expect(list.total_count).toBe(0);
  });

  it('imports a CSV by column name: merge adds, replace makes it the whole list; bad rows are reported', async () => {
    const { headers } = await account();
    await add(headers, ['2024440141']);
    const csv = 'Name,Phone\nAda,(202) 444-0142\nBob,not a number\nCy,202.444.0143\n';
    const merged = await call(headers, 'POST', '/dnc/import', { csv_content: csv, phone_col: 'phone' });
    expect(merged.statusCode).toBe(200);
    expect(DncChangeSchema.parse(merged.json())).toMatchObject({
      changed: 2,
      rejected_count: 1,
      rejected: [{ index: 3, message: expect.stringContaining('not a number') }],
      summary: { count: 3 },
    });

    const replaced = await call(headers, 'POST', '/dnc/import', {
      csv_content: '2024440143\n2024440144\n',
      mode: 'replace',
    });
    expect(replaced.statusCode).toBe(200);
    expect(DncChangeSchema.parse(replaced.json()).summary.count).toBe(2);
    const list = DncNumberListSchema.parse((await call(headers, 'GET', '/dnc/numbers')).json());
    expect(list.numbers.map((n) => n.phone_number)).toEqual(['+12024440143', '+12024440144']);
    expect((await verify(headers, '2024440141')).dnc).toBe(0);
    expect((await verify(headers, '2024440144')).dnc).toBe(1);
  });

  it('refuses an import in which no number can be read, and changes nothing', async () => {
    const { headers } = await account();
    await add(headers, ['2024440151']);
    const res = await call(headers, 'POST', '/dnc/import', {
      csv_content: 'Phone\nnope\nstill no\n',
      phone_col: 'Phone',
      mode: 'replace',
    });
    expect(res.statusCode).toBe(400);
    expect(ErrorEnvelopeSchema.parse(res.json()).error.message).toMatch(/nothing was changed/);
    const missing = await call(headers, 'POST', '/dnc/import', {
      csv_content: 'A,B\n1,2\n',
      phone_col: 'Phone',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/Phone/);
    expect(DncSummarySchema.parse((await call(headers, 'GET', '/dnc')).json()).count).toBe(1);
  });

  it('lists a page at a time, searches by digits, and exports the whole list as CSV', async () => {
    const { headers } = await account();
    await add(headers, ['2024440161', '2024440162', '2034440163']);
    const page = DncNumberListSchema.parse(
      (await call(headers, 'GET', '/dnc/numbers?limit=2&page=2')).json(),
    );
    expect(page).toMatchObject({ page: 2, total_pages: 2, total_count: 3 });
    expect(page.numbers.map((n) => n.phone_number)).toEqual(['+12034440163']);
    const found = DncNumberListSchema.parse(
      (await call(headers, 'GET', '/dnc/numbers?search=(202) 444')).json(),
    );
    expect(found.total_count).toBe(2);

    const exported = await call(headers, 'GET', '/dnc/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    const lines = exported.body.trimEnd().split('\n');
    expect(lines[0]).toBe('phone_number,added_at');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      '+12024440161',
      '+12024440162',
      '+12034440163',
    ]);
  });

  it('answers bad input with a 400 naming the problem', async () => {
    const { headers } = await account();
    const empty = await call(headers, 'POST', '/dnc/numbers', { numbers: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('validation_failed');
    const tooMany = await call(headers, 'POST', '/dnc/numbers', {
      numbers: Array.from({ length: MAX_DNC_NUMBERS_PER_CALL + 1 }, () => '2024440100'),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/10,000/);
    const mode = await call(headers, 'POST', '/dnc/import', { csv_content: '2024440100', mode: 'overwrite' });
    expect(mode.statusCode).toBe(400);
    expect((await call(headers, 'GET', '/dnc/numbers?limit=0')).statusCode).toBe(400);
    expect((await call({}, 'GET', '/dnc')).statusCode).toBe(401);
  });

  it("joins the operator's import for the account with the account's own numbers", async () => {
    const { profileId, headers } = await account();
    const previous = referenceData.ref.update({
      internal: new InternalDncLists([listOf(`internal:${profileId}`, [2_024_440_171])]),
    });
    try {
      await add(headers, ['2024440172']);
      expect(DncSummarySchema.parse((await call(headers, 'GET', '/dnc')).json())).toMatchObject({
        count: 1,
        operator_count: 1,
      });
      expect(await verify(headers, '2024440171')).toMatchObject({ dnc: 1, dnc_sources: ['internal'] });
      expect(await verify(headers, '2024440172')).toMatchObject({ dnc: 1, dnc_sources: ['internal'] });
    } finally {
      referenceData.ref.swap(previous);
    }
  });

  it('counts the list in bulk results', async () => {
    const { headers } = await account();
    await add(headers, ['2024440181']);
    const created = await call(headers, 'POST', '/bulk/jobs', {
      file_name: 'leads.csv',
      phone_col: 'Phone',
      csv_content: 'Phone\n2024440181\n2024440182\n',
    });
    expect(created.statusCode).toBe(201);
    const jobId = created.json().job_id;
    let job = BulkJobSchema.parse((await call(headers, 'GET', `/bulk/jobs/${jobId}?wait=10`)).json());
    for (let i = 0; i < 100 && job.status !== 'completed' && job.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = BulkJobSchema.parse((await call(headers, 'GET', `/bulk/jobs/${jobId}`)).json());
    }
    expect(job.status).toBe('completed');
    const result = await t.app.inject({ method: 'GET', url: new URL(job.result_url!).pathname });
    const rows = result.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual(['1', '0']);
  });
});
