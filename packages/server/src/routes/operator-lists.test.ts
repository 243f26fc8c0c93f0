import {
  AccountListsSchema,
  BulkJobSchema,
  VerifyBatchResultSchema,
  VerifyResultSchema,
} from '@scrub/contract';
import { ClassCode, DncList, DncListBuilder, DncSet, ExchangeTableBuilder } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';

// Operator lists (known litigators, a vendor's list) as a customer counts them: flags beside DNC.

const listOf = (name: string, numbers: number[], releasedOn: string | null) => {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return DncList.fromShared({ ...builder.build(`${name}-v1`).toShared(), releasedOn });
};

/** 201-234 is a mobile exchange; 201-234-0001 is on the federal list, 0002 on the litigators'. */
function referenceData() {
  const exchange = new ExchangeTableBuilder();
  exchange.coverArea(201);
  exchange.setExchange(201234, ClassCode.MOBILE);
  return new ReferenceData({
    exchange: exchange.build('test-exchanges'),
    dnc: new DncSet([listOf('federal', [2012340001], RELEASED_TODAY)]),
    lists: new DncSet([
      listOf('list:litigators', [2012340002, 2012340001], '2026-11-01'),
      listOf('list:vendor-x', [2012340003], null),
    ]),
  });
}

const LITIGATORS = { name: 'litigators', released_on: '2026-11-01' };

let accounts = 0;
async function account(t: TestApp) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `lists-${accounts}`,
    email: `lists${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  await applyLedgerEntry(db, { profileId: id, delta: 50, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { 'x-api-key': api_key };
}

describe.each(testDatabases())('operator lists on $kind', (database) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: await database.open(), referenceData: referenceData() },
    );
  });
  afterAll(() => t?.close());

  const verify = async (headers: Record<string, string>, query: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url: '/verify', query, headers });
    return { status: res.statusCode, body: res.json() };
  };

  it('answers the lists asked for beside dnc, never in it, and refuses a list nobody imported', async () => {
    const headers = await account(t);
    // Without a choice, no list counts: the answer is as before, with an empty `lists`.
    const plain = VerifyResultSchema.parse((await verify(headers, { p: '201-234-0002' })).body);
    expect(plain).toMatchObject({ dnc: 0, lists: [] });

    const asked = VerifyResultSchema.parse(
      (await verify(headers, { p: '201-234-0002', lists: 'litigators,vendor-x' })).body,
    );
    expect(asked).toMatchObject({
      dnc: 0,
      dnc_sources: [],
      callable_now: plain.callable_now,
      lists: [
        { ...LITIGATORS, listed: true },
        { name: 'vendor-x', listed: false, released_on: null },
      ],
    });
    // On both: DNC is the federal list's, the litigator hit a flag of its own.
    expect((await verify(headers, { p: '2012340001', lists: 'litigators' })).body).toMatchObject({
      dnc: 1,
      dnc_sources: ['federal'],
      lists: [{ ...LITIGATORS, listed: true }],
    });
    // An invalid number on no list was not checked.
    expect((await verify(headers, { p: '123', lists: 'litigators' })).body).toMatchObject({
      line_type: 'invalid',
      lists: [{ ...LITIGATORS, listed: null }],
    });

    const unknown = await verify(headers, { p: '201-234-0002', lists: 'litigators,plaintiffs' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      'lists: no list named "plaintiffs": the lists are litigators, vendor-x.',
    );
    expect((await verify(headers, { p: '201-234-0002', lists: 'Bad Name' })).status).toBe(400);
  });

  it('keeps an account default, which a request overrides', async () => {
    const headers = await account(t);
    const get = async () =>
      AccountListsSchema.parse((await t.app.inject({ method: 'GET', url: '/user/lists', headers })).json());
    expect(await get()).toEqual({
      lists: [],
      available: [
        { name: 'litigators', version: 'list:litigators-v1', released_on: '2026-11-01', numbers: 2 },
        { name: 'vendor-x', version: 'list:vendor-x-v1', released_on: null, numbers: 1 },
      ],
    });
    const set = await t.app.inject({
      method: 'PUT',
      url: '/user/lists',
      headers,
      payload: { lists: ['litigators'] },
    });
    expect(set.statusCode).toBe(200);
    expect((await get()).lists).toEqual(['litigators']);

    expect((await verify(headers, { p: '201-234-0002' })).body.lists).toEqual([
      { ...LITIGATORS, listed: true },
    ]);
    // `lists=` with no name: none counts for this request.
    expect((await verify(headers, { p: '201-234-0002', lists: '' })).body.lists).toEqual([]);
    expect((await verify(headers, { p: '201-234-0003', lists: 'vendor-x' })).body.lists).toEqual([
      { name: 'vendor-x', listed: true, released_on: null },
    ]);

    const refused = await t.app.inject({
      method: 'PUT',
      url: '/user/lists',
      headers,
      payload: { lists: ['nope'] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/no list named "nope": the lists are litigators, vendor-x/);
    expect((await get()).lists).toEqual(['litigators']);

    // A batch answers the same, with its own `lists` or the default.
    const batch = await t.app.inject({
      method: 'POST',
      url: '/verify',
      headers,
      payload: { phones: ['201-234-0002', '201-234-0003'], lists: ['vendor-x'] },
    });
    expect(
      VerifyBatchResultSchema.parse(batch.json()).results.map((result) => result.lists?.[0]?.listed),
    ).toEqual([false, true]);
    const byDefault = await t.app.inject({
      method: 'POST',
      url: '/verify',
      headers,
      payload: { phones: ['201-234-0002'] },
    });
    expect(byDefault.json().results[0].lists).toEqual([{ ...LITIGATORS, listed: true }]);
  });

  it('gives a bulk job one List column per list it counts, the account default included', async () => {
    const headers = await account(t);
    const run = async (lists?: string[]) => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/bulk/jobs',
        headers,
        payload: {
          file_name: 'leads.csv',
          phone_col: 'Phone',
          csv_content: 'Name,Phone\nAnn,201-234-0001\nBob,201-234-0002\nCy,201-234-0003\nDee,n/a\n',
          ...(lists ? { lists } : {}),
        },
      });
      expect(created.statusCode).toBe(201);
      let job = BulkJobSchema.parse(created.json());
      for (let i = 0; i < 400 && job.status !== 'completed' && job.status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const res = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}`, headers });
        job = BulkJobSchema.parse(res.json());
      }
      const result = await t.app.inject({ method: 'GET', url: new URL(job.result_url!).pathname });
      return {
        job,
        rows: result.body
          .replace(/^\uFEFF/, '')
          .trimEnd()
          .split(/\r?\n/),
      };
    };

    const asked = await run(['vendor-x', 'litigators']);
    expect(asked.job).toMatchObject({ status: 'completed', lists: ['vendor-x', 'litigators'] });
    expect(asked.job.dnc_status).toMatchObject({ dnc: 1, clean: 2 });
    expect(asked.rows).toEqual([
      'Name,Phone,Line Type,DNC,List: vendor-x,List: litigators',
      'Ann,201-234-0001,mobile,1,0,1',
      'Bob,201-234-0002,mobile,0,0,1',
      'Cy,201-234-0003,mobile,0,1,0',
      'Dee,n/a,invalid,,,',
    ]);

    // No list asked and no default: the file is as it always was.
    expect((await run()).rows[0]).toBe('Name,Phone,Line Type,DNC');
    await t.app.inject({ method: 'PUT', url: '/user/lists', headers, payload: { lists: ['litigators'] } });
    const byDefault = await run();
    expect(byDefault.job.lists).toEqual(['litigators']);
    expect(byDefault.rows[0]).toBe('Name,Phone,Line Type,DNC,List: litigators');
    expect((await run([])).rows[0]).toBe('Name,Phone,Line Type,DNC');

    const unknown = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'x.csv', phone_col: 'Phone', lists: ['nope'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toMatch(/the lists are litigators, vendor-x/);
  });
});
