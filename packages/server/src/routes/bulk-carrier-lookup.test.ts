import { BulkJobQuoteSchema, BulkJobSchema, CreatedBulkJobSchema, FileProofSchema } from '@scrub/contract';
import {
  ClassCode,
  DisconnectList,
  DncList,
  DncListBuilder,
  DncSet,
  dayOf,
  ExchangeTableBuilder,
} from '@scrub/engine';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  STAND_IN_SID,
  STAND_IN_TOKEN,
  type StandInAnswer,
  startTwilioLookupStandIn,
} from '../../test/twilio-lookup-stand-in.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';

// Carrier lookups in bulk jobs (`lookup: 'carrier'`), as a customer asks them: the result's Line
// Type Source and Ported columns, the price of each answered lookup and the refund of the others,
// and the proof naming everything the answers rest on.

/** 201-234 is a mobile exchange. */
function exchangeData() {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, ClassCode.MOBILE);
  return builder.build('test-exchanges');
}

const TWILIO: Map<string, StandInAnswer> = new Map([
  ['+12012340001', { type: 'nonFixedVoip', carrier_name: 'Bandwidth' }],
  ['+12012340002', { type: 'mobile', carrier_name: 'Verizon Wireless' }],
  ['+12012340003', { fail: 'http_500' }],
  ['+12012340004', { type: 'pager', carrier_name: 'Pager Co' }],
]);

/** Six records, four distinct valid numbers: two answered (one ported), one failed, one with no Scrub line type. */
const LEADS = [
  'Name,Phone,Consent',
  'Ann,201-234-0001,2024-02-01',
  'Bob,201-234-0002,2024-02-01',
  'Cy,201-234-0003,2024-02-01',
  'Di,201-234-0004,2024-02-01',
  'Ed,201-234-0001,2024-02-01',
  'Fay,123-456-7890,2024-02-01',
].join('\r\n');

const litigators = (() => {
  const builder = new DncListBuilder('list:litigators');
  builder.add(2012340002);
  return DncList.fromShared({ ...builder.build('litigators-v1').toShared(), releasedOn: '2026-11-01' });
})();
const disconnects = DisconnectList.build([[2012340004, dayOf('2024-03-01')]], {
  version: 'rnd-2024-06',
  asOf: '2024-06-30',
  from: '2024-01-01',
});

describe.each(testDatabases())('carrier lookups in bulk jobs on $kind', (database) => {
  let t: TestApp;
  let plain: TestApp;
  let base: string;
  let standIn: Awaited<ReturnType<typeof startTwilioLookupStandIn>>;
  let accounts = 0;

  async function account(app: TestApp, credits: number) {
    accounts++;
    const { id } = await ensureProfile(app.database.db, {
      sub: `bulk-lookup-${accounts}`,
      email: `bulk-lookup${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    await applyLedgerEntry(app.database.db, { profileId: id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(app.database.db, id);
    return { profileId: id, headers: { 'x-api-key': api_key } };
  }

  const create = (app: TestApp, headers: Record<string, string>, body: Record<string, unknown>) =>
    app.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'leads.csv', phone_col: 'Phone', ...body },
    });

  async function completed(headers: Record<string, string>, body: Record<string, unknown>) {
    const created = await create(t, headers, body);
    expect(created.statusCode).toBe(201);
    const job = CreatedBulkJobSchema.parse(created.json());
    const url = new URL(job.upload_url!);
    await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'text/csv' },
      payload: LEADS,
    });
    const quote = BulkJobQuoteSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}/quote`, headers })).json(),
    );
    const submit = await t.app.inject({ method: 'POST', url: `/bulk/jobs/${job.job_id}/submit`, headers });
    expect(submit.statusCode).toBe(200);
    const done = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${job.job_id}?wait=20`, headers });
    return { quote, job: BulkJobSchema.parse(done.json()) };
  }

  async function resultRows(resultUrl: string): Promise<Record<string, string>[]> {
    const res = await t.app.inject({ method: 'GET', url: new URL(resultUrl).pathname });
    return parse(res.body.replace(/^\uFEFF/, ''), { columns: true });
  }

  beforeAll(async () => {
    standIn = await startTwilioLookupStandIn(TWILIO);
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        carrierLookup: {
          twilio: { accountSid: STAND_IN_SID, authToken: STAND_IN_TOKEN, baseUrl: standIn.url },
          credits: 2,
          // Generous: a loaded machine must not turn an answer into a failure (no number here hangs).
          timeoutMs: 5000,
        },
      },
      {
        database: await database.open(),
        referenceData: new ReferenceData({
          exchange: exchangeData(),
          dnc: new DncSet(),
          lists: new DncSet([litigators]),
          disconnects,
        }),
      },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    plain = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      {
        database: await database.open(),
        referenceData: new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() }),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
    await standIn?.close();
  });

  it('looks each distinct valid number up, charges answered lookups only, and names the answers in two columns', async () => {
    const { headers, profileId } = await account(t, 30);
    const { quote, job } = await completed(headers, { lookup: 'carrier' });
    // 1 credit for the check, 2 for the lookup: quoted and charged for every record.
    expect(quote).toMatchObject({
      records: 6,
      unique_numbers: 4,
      credits_per_record: 3,
      credits_required: 18,
    });
    expect(job).toMatchObject({
      status: 'completed',
      lookup: 'carrier',
      columns: ['line_type_source'],
      carrier_lookups: { provider: 'twilio', answered: 2, not_answered: 2 },
      line_type_sources: { carrier_lookup: 3, exchange: 2 },
      credits_charged: 18,
      // Kept: 4 checks and 2 answered lookups (8); given back: 2 duplicate/invalid records and 2 lookups not answered.
      credits_reversed: 10,
    });
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(22);
    const rows = await resultRows(job.result_url!);
    expect(Object.keys(rows[0]!).slice(-4)).toEqual(['Line Type', 'DNC', 'Line Type Source', 'Ported']);
    expect(rows.map((row) => [row.Name, row['Line Type'], row['Line Type Source'], row.Ported])).toEqual([
      ['Ann', 'voip', 'carrier_lookup', '1'],
      ['Bob', 'mobile', 'carrier_lookup', ''],
      // The provider failed, or gave no Scrub line type: the exchange's answer, and the row says so.
      ['Cy', 'mobile', 'exchange', ''],
      ['Di', 'mobile', 'exchange', ''],
      ['Ed', 'voip', 'carrier_lookup', '1'],
      ['Fay', 'invalid', '', ''],
    ]);
  });

  it('reuses answers of the last 30 days: only a number whose lookup failed is asked again', async () => {
    const { headers } = await account(t, 30);
    const before = standIn.asked.length;
    const { job } = await completed(headers, { lookup: 'carrier' });
    expect(job.carrier_lookups).toEqual({ provider: 'twilio', answered: 2, not_answered: 2 });
    // The pager's answer is kept (the provider answered); the failure was not.
    expect(standIn.asked.slice(before)).toEqual(['+12012340003']);
  });

  it('signs a proof naming the operator lists, the reassigned-number source and what the line types rest on', async () => {
    const { headers } = await account(t, 40);
    const { job } = await completed(headers, {
      lookup: 'carrier',
      lists: ['litigators'],
      consent_col: 'Consent',
    });
    const res = await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/proof` });
    expect(res.statusCode).toBe(200);
    const proof = FileProofSchema.parse(res.json());
    const signed = JSON.parse(Buffer.from(proof.jws.split('.')[1]!, 'base64url').toString());
    expect(signed).toEqual(proof.statement);
    expect(proof.statement).toMatchObject({
      operator_lists: [{ name: 'litigators', version: 'litigators-v1', released_on: '2026-11-01' }],
      reassigned_source: { provider: 'imported_disconnects', as_of: '2024-06-30' },
      line_type_sources: { carrier_lookup: 3, exchange: 2 },
      carrier_lookups: { provider: 'twilio', answered: 2, not_answered: 2 },
    });
  });

  it('names no lists, reassigned source or lookups in the proof of a job that used none', async () => {
    const { headers } = await account(t, 10);
    const { job } = await completed(headers, { lists: [] });
    const proof = FileProofSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/proof` })).json(),
    );
    expect(proof.statement.line_type_sources).toEqual({ exchange: 5 });
    expect(proof.statement).not.toHaveProperty('operator_lists');
    expect(proof.statement).not.toHaveProperty('reassigned_source');
    expect(proof.statement).not.toHaveProperty('carrier_lookups');
  });

  it('refuses lookup: carrier where the operator set no lookups up, and in a streamed job, charging nothing', async () => {
    const { headers, profileId } = await account(plain, 10);
    const refused = await create(plain, headers, { lookup: 'carrier' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/Carrier lookups are not offered by this service/);
    expect((await ledgerTotals(plain.database.db, profileId)).balance).toBe(10);

    const other = await account(t, 10);
    const streamed = await fetch(
      `${base}/bulk/jobs/stream?file_name=leads.csv&phone_col=Phone&lookup=carrier`,
      {
        method: 'POST',
        headers: { ...other.headers, 'content-type': 'text/csv' },
        body: LEADS,
      },
    );
    expect(streamed.status).toBe(400);
    expect(((await streamed.json()) as { error: { message: string } }).error.message).toMatch(
      /not made in a streamed job/,
    );
    expect((await ledgerTotals(t.database.db, other.profileId)).balance).toBe(10);
  });
});
