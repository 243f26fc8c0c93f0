import { BulkJobQuoteSchema, BulkJobSchema, CreatedBulkJobSchema, JOB_ID_HEADER } from '@scrub/contract';
import { ClassCode, DisconnectList, DncSet, dayOf, ExchangeTableBuilder } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';

// Reassigned numbers in bulk, as a customer asks: a consent-date column in the file; the result's
// Reassigned column, what the job costs, and its refund when it fails.

/** 201-234-0100 was disconnected on 2024-03-01; the file covers 2024-01-01 to 2024-06-30. */
const disconnects = DisconnectList.build([[2012340100, dayOf('2024-03-01')]], {
  version: 'rnd-2024-06',
  asOf: '2024-06-30',
  from: '2024-01-01',
});
const FILE_SOURCE = { provider: 'imported_disconnects', as_of: '2024-06-30' };
/** A query service is configured (it is never asked in bulk); the price of an answer is 2. */
const QUERY_SERVICE = { credits: 2, http: { url: 'http://127.0.0.1:9/rnd', key: 'rnd-key', timeoutMs: 300 } };

function exchangeData() {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, ClassCode.MOBILE);
  return builder.build('test-exchanges');
}

/**
 * Six records, four distinct valid numbers. Reassigned: yes (disconnected after consent), no, no
 * data (a consent cell that is not a date), no data (consent before the file begins), no (the
 * same number as the first, with consent after its disconnection), no data (an invalid number).
 */
const LEADS = [
  'Name,Phone,Consent',
  'Ann,201-234-0100,2024-02-01',
  'Bob,201-234-0101,2/1/2024',
  'Cid,201-234-0102,soon',
  'Dee,201-234-0103,2023-12-31',
  'Eve,201-234-0100,2024-04-01',
  'Fay,123-456-7890,2024-02-01',
].join('\r\n');
const REASSIGNED_CELLS = ['1', '0', '', '', '0', ''];

describe.each(testDatabases())('bulk jobs with a consent-date column on $kind', (database) => {
  let t: TestApp;
  let accounts = 0;

  async function account(app: TestApp, credits: number) {
    accounts++;
    const db = app.database.db;
    const { id } = await ensureProfile(db, {
      sub: `bulk-reassigned-${accounts}`,
      email: `bulk-reassigned${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, id);
    return { profileId: id, headers: { 'x-api-key': api_key } };
  }

  async function create(app: TestApp, headers: Record<string, string>, body: Record<string, unknown>) {
    const res = await app.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'leads.csv', phone_col: 'Phone', ...body },
    });
    return { status: res.statusCode, body: res.json() };
  }

  async function uploaded(headers: Record<string, string>, body: Record<string, unknown>, csv = LEADS) {
    const created = await create(t, headers, body);
    expect(created.status).toBe(201);
    const job = CreatedBulkJobSchema.parse(created.body);
    const url = new URL(job.upload_url!);
    const put = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(put.statusCode).toBe(200);
    return job;
  }

  async function submitted(headers: Record<string, string>, jobId: string) {
    const res = await t.app.inject({ method: 'POST', url: `/bulk/jobs/${jobId}/submit`, headers });
    expect(res.statusCode).toBe(200);
    const done = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${jobId}?wait=20`, headers });
    return BulkJobSchema.parse(done.json());
  }

  async function resultRows(resultUrl: string) {
    const res = await t.app.inject({ method: 'GET', url: new URL(resultUrl).pathname });
    return res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
  }

  let base: string;
  const stream = (headers: Record<string, string>, query = 'phone_col=Phone&consent_col=Consent') =>
    fetch(`${base}/bulk/jobs/stream?file_name=leads.csv&${query}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/csv' },
      body: LEADS,
    });

  beforeAll(async () => {
    // A query service is configured and a disconnect file is imported: bulk jobs answer from the file.
    const referenceData = new ReferenceData({ exchange: exchangeData(), dnc: new DncSet(), disconnects });
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        reassigned: QUERY_SERVICE,
      },
      { database: await database.open(), referenceData },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('adds the Reassigned column from the imported file, quoted and charged 1 + the answer price a record', async () => {
    const { headers, profileId } = await account(t, 30);
    const job = await uploaded(headers, { consent_col: 'Consent' });
    expect(job).toMatchObject({ consent_col: 'Consent', credits_per_record: 3, reassigned_source: null });

    const quote = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}/quote`, headers });
    expect(BulkJobQuoteSchema.parse(quote.json())).toMatchObject({
      records: 6,
      unique_numbers: 4,
      credits_per_record: 3,
      credits_required: 18,
      credits_available: 30,
      sufficient: true,
    });

    const done = await submitted(headers, job.job_id);
    // Charged 6 records at 3; the two that needed no answer (a duplicate, an invalid number) given back.
    expect(done).toMatchObject({
      status: 'completed',
      consent_col: 'Consent',
      credits_per_record: 3,
      credits_charged: 18,
      credits_reversed: 6,
      reassigned_source: FILE_SOURCE,
    });
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 18, sum: 18 });

    const rows = await resultRows(done.result_url!);
    expect(rows[0]).toBe('Name,Phone,Consent,Line Type,DNC,Reassigned');
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual(REASSIGNED_CELLS);
  });

  it('takes the consent column by position in a file without a header', async () => {
    const { headers } = await account(t, 30);
    const job = await uploaded(
      headers,
      { phone_col: 1, header_row: 0, consent_col: 2 },
      LEADS.split('\r\n').slice(1).join('\r\n'),
    );
    const done = await submitted(headers, job.job_id);
    expect(done).toMatchObject({
      status: 'completed',
      consent_col: 2,
      credits_charged: 18,
      credits_reversed: 6,
    });
    // The result names its added columns in a header row of its own.
    const rows = await resultRows(done.result_url!);
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual(REASSIGNED_CELLS);
  });

  it('gives back every credit when the job fails (no such consent column)', async () => {
    const { headers, profileId } = await account(t, 30);
    const job = await uploaded(headers, { consent_col: 'Opt-in' });
    const done = await submitted(headers, job.job_id);
    expect(done).toMatchObject({ status: 'failed', credits_charged: 18, credits_reversed: 18 });
    expect(done.error).toContain('consent-date column');
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 30, sum: 30 });
  });

  it('charges a job without a consent column as before, and adds no column', async () => {
    const { headers, profileId } = await account(t, 30);
    const job = await uploaded(headers, {});
    const done = await submitted(headers, job.job_id);
    expect(done).toMatchObject({
      consent_col: null,
      credits_per_record: 1,
      credits_charged: 6,
      credits_reversed: 2,
    });
    expect(done.reassigned_source).toBeNull();
    expect((await resultRows(done.result_url!))[0]).toBe('Name,Phone,Consent,Line Type,DNC');
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 26 });
  });

  it('streams a job with a consent column: the same column, reserved and settled at the record price', async () => {
    const { headers, profileId } = await account(t, 30);
    const res = await stream(headers);
    expect(res.status).toBe(200);
    const rows = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(rows[0]).toBe('Name,Phone,Consent,Line Type,DNC,Reassigned');
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual(REASSIGNED_CELLS);
    const jobId = res.headers.get(JOB_ID_HEADER)!;
    const job = BulkJobSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${jobId}`, headers })).json(),
    );
    expect(job).toMatchObject({ consent_col: 'Consent', reassigned_source: FILE_SOURCE });
    expect(job.credits_charged - job.credits_reversed).toBe(12);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 18, sum: 18 });
  });

  it('refuses a streamed job the balance cannot pay at the record price, charging nothing', async () => {
    // Enough for the six records at 1 credit, not at 3.
    const { headers, profileId } = await account(t, 6);
    const res = await stream(headers);
    expect(res.status).toBe(402);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 6, sum: 6 });
  });

  describe.each([
    {
      setup: 'a query service and no disconnect file',
      reassigned: QUERY_SERVICE,
      why: /no disconnect file is imported.*Nothing was charged/,
    },
    {
      setup: 'no reassigned-number data at all',
      reassigned: { credits: 2, http: null },
      why: /no reassigned-number data is imported.*Nothing was charged/,
    },
  ])('with $setup', ({ reassigned, why }) => {
    let bare: TestApp;
    beforeAll(async () => {
      const referenceData = new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() });
      bare = await createTestApp(
        {
          dataDir: tempDir(),
          blobStore: { kind: 'local', dir: `${tempDir()}/files` },
          reassigned,
        },
        { database: await database.open(), referenceData },
      );
    });
    afterAll(() => bare?.close());

    it('refuses a consent column with a 400 that says why, before anything is made or charged', async () => {
      const { headers, profileId } = await account(bare, 30);
      const refused = await create(bare, headers, { consent_col: 'Consent', csv_content: LEADS });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(why);
      const streamed = await bare.app.inject({
        method: 'POST',
        url: '/bulk/jobs/stream?file_name=leads.csv&phone_col=Phone&consent_col=Consent',
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: LEADS,
      });
      expect(streamed.statusCode).toBe(400);
      expect(await ledgerTotals(bare.database.db, profileId)).toMatchObject({ balance: 30, sum: 30 });
      // Without a consent column the job is made as always.
      expect((await create(bare, headers, {})).status).toBe(201);
    });
  });
});
