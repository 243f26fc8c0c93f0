import { BulkJobSchema, ClientConfigSchema, HealthSchema, VerifyResultSchema } from '@scrub/contract';
import { ClassCode, DncListBuilder, DncSet, ExchangeTableBuilder } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { loadConfig } from '../config/config.js';
import { ReferenceData } from '../reference-data/reference-data.js';

// Answers a customer can rely on: a single check and a bulk file answer the same for the same
// number, and neither calls a number clean without a list that covers it.

const dncList = (name: string, numbers: number[]) => {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build('v1', RELEASED_TODAY);
};

/** Area code 201 (New Jersey) is covered: exchange 201-234 is mobile, every other one not in service. */
function exchangeData() {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, ClassCode.MOBILE);
  return builder.build('test-exchanges');
}

let accounts = 0;

async function account(t: TestApp, credits: number) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `dnc-${accounts}`,
    email: `dnc${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { profileId: id, headers: { 'x-api-key': api_key } };
}

async function verify(t: TestApp, headers: Record<string, string>, p: string) {
  const res = await t.app.inject({ method: 'GET', url: '/verify', query: { p }, headers });
  return { status: res.statusCode, body: res.json() };
}

async function settled(t: TestApp, headers: Record<string, string>, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/bulk/jobs/${jobId}`, headers });
    const job = BulkJobSchema.parse(res.json());
    if (job.status === 'completed' || job.status === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the job never settled');
}

/** A bulk job of the phones, one per row: the job and its result rows as [phone, line type, DNC]. */
async function scrubFile(t: TestApp, headers: Record<string, string>, phones: string[]) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/bulk/jobs',
    headers,
    payload: { file_name: 'table.csv', phone_col: 'Phone', csv_content: `Phone\n${phones.join('\n')}\n` },
  });
  expect(created.statusCode).toBe(201);
  const job = await settled(t, headers, created.json().job_id);
  if (job.status !== 'completed') return { job, rows: [] };
  const result = await t.app.inject({ method: 'GET', url: new URL(job.result_url!).pathname });
  const [header, ...rows] = result.body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\n');
  expect(header).toBe('Phone,Line Type,DNC');
  return { job, rows: rows.map((row) => row.split(',')) };
}

/** The DNC cell a bulk result has for a single check's answer. */
const cellOf = (answer: { dnc: 0 | 1 | null; line_type: string }) =>
  answer.dnc === null ? (answer.line_type === 'invalid' ? '' : 'unchecked') : String(answer.dnc);

describe('DNC answers: /verify and bulk agree, and never say clean without a list', () => {
  let t: TestApp;
  let referenceData: ReferenceData;

  beforeAll(async () => {
    referenceData = new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() });
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { referenceData },
    );
  });
  afterAll(() => t?.close());

  // New Jersey's list is loaded, Texas's is not, and there is no federal list.
  const TABLE = [
    {
      case: 'exchange not in service, on a DNC list',
      phone: '201-999-0001',
      line_type: 'unknown_geographic',
      dnc: 1,
      dnc_sources: ['state:NJ'],
      dnc_lists_checked: ['state:NJ'],
      invalid_reason: 'exchange_not_in_service',
      credits: 1,
    },
    {
      case: 'exchange not in service, on no list',
      phone: '201-999-0002',
      line_type: 'invalid',
      dnc: null,
      dnc_sources: [],
      dnc_lists_checked: [],
      invalid_reason: 'exchange_not_in_service',
      credits: 0,
    },
    {
      case: 'valid, no list covering it loaded',
      phone: '512-736-0100',
      line_type: 'unknown_geographic',
      dnc: null,
      dnc_sources: [],
      dnc_lists_checked: [],
      invalid_reason: null,
      credits: 1,
    },
    {
      case: 'valid, its list loaded, not on it',
      phone: '201-234-0001',
      line_type: 'mobile',
      dnc: 0,
      dnc_sources: [],
      dnc_lists_checked: ['state:NJ'],
      invalid_reason: null,
      credits: 1,
    },
    {
      case: 'valid, on its list',
      phone: '201-234-0002',
      line_type: 'mobile',
      dnc: 1,
      dnc_sources: ['state:NJ'],
      dnc_lists_checked: ['state:NJ'],
      invalid_reason: null,
      credits: 1,
    },
  ] as const;

  it('answers each case of the table the same in /verify and in a bulk file', async () => {
    const previous = referenceData.ref.update({
      dnc: new DncSet([dncList('state:NJ', [2019990001, 2012340002])]),
    });
    try {
      const { headers, profileId } = await account(t, 20);
      const phones = TABLE.map((row) => row.phone);
      for (const row of TABLE) {
        const { status, body } = await verify(t, headers, row.phone);
        expect(status, row.case).toBe(200);
        const answer = VerifyResultSchema.parse(body);
        expect(answer, row.case).toMatchObject({
          line_type: row.line_type,
          dnc: row.dnc,
          dnc_sources: row.dnc_sources,
          dnc_lists_checked: row.dnc_lists_checked,
          invalid_reason: row.invalid_reason,
          credits_deducted: row.credits,
        });
      }
      // The single checks' charges: one credit per answer that is not invalid, as before.
      expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 16 });

      const { job, rows } = await scrubFile(t, headers, phones);
      expect(job.status).toBe('completed');
      expect(rows).toEqual(
        TABLE.map((row) => [row.phone, row.line_type, cellOf({ dnc: row.dnc, line_type: row.line_type })]),
      );
      // Unchecked rows are counted apart from clean ones; invalid numbers on no list are neither.
      expect(job.dnc_status).toEqual({ clean: 1, dnc: 2, unchecked: 1 });
      expect(job.line_types).toEqual({ unknown_geographic: 2, mobile: 2, invalid: 1 });
      // Charged per record, the invalid one given back: the same four credits the checks cost.
      expect(job).toMatchObject({ credits_charged: 5, credits_reversed: 1 });
      expect(job.file_message).toMatch(
        /1 number the exchange data calls not in service is on a do-not-call list/,
      );
    } finally {
      referenceData.ref.swap(previous);
    }
  });

  it('answers a fresh install (no DNC list at all) unchecked, never clean, in both', async () => {
    const { headers } = await account(t, 10);
    const phones = ['201-234-0001', '512-736-0100', '201-999-0001'];
    const answers = [];
    for (const phone of phones)
      answers.push(VerifyResultSchema.parse((await verify(t, headers, phone)).body));
    expect(answers.map((answer) => answer.dnc)).toEqual([null, null, null]);
    expect(answers.map((answer) => answer.dnc_lists_checked)).toEqual([[], [], []]);
    const { job, rows } = await scrubFile(t, headers, phones);
    expect(rows.map((row) => row[2])).toEqual(answers.map(cellOf));
    expect(rows.map((row) => row[2])).toEqual(['unchecked', 'unchecked', '']);
    expect(job.dnc_status).toEqual({ unchecked: 2 });
  });

  it('says which lists are loaded in /health and /config', async () => {
    const previous = referenceData.ref.update({
      dnc: new DncSet([dncList('federal', []), dncList('state:TX', [])]),
    });
    try {
      const health = HealthSchema.parse((await t.app.inject({ method: 'GET', url: '/health' })).json());
      const today = { released_on: RELEASED_TODAY, age_days: 0, stale: false };
      expect(health.dnc_lists).toEqual({
        loaded: ['federal', 'state:TX'],
        required: [],
        missing_required: [],
        stale: [],
        lists: [
          { list: 'federal', ...today },
          { list: 'state:TX', ...today },
        ],
        max_age_days: 31,
      });
      const config = ClientConfigSchema.parse((await t.app.inject({ method: 'GET', url: '/config' })).json());
      expect(config.dnc_lists.loaded).toEqual(['federal', 'state:TX']);
    } finally {
      referenceData.ref.swap(previous);
    }
  });
});

describe('SCRUB_REQUIRE_DNC=federal', () => {
  let t: TestApp;
  let referenceData: ReferenceData;

  beforeAll(async () => {
    referenceData = new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() });
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        requireDnc: ['federal'],
      },
      { referenceData },
    );
  });
  afterAll(() => t?.close());

  it('refuses checks and bulk submits with a 503 until the federal list is loaded, charging nothing', async () => {
    const { headers, profileId } = await account(t, 5);
    const refused = await verify(t, headers, '201-234-0001');
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('service_unavailable');
    expect(refused.body.message).toMatch(
      /Checks are paused: the do-not-call list federal is required by this service \(SCRUB_REQUIRE_DNC\) and not loaded/,
    );
    const health = HealthSchema.parse((await t.app.inject({ method: 'GET', url: '/health' })).json());
    expect(health).toMatchObject({
      status: 'degraded',
      dnc_lists: { loaded: [], required: ['federal'], missing_required: ['federal'] },
    });

    // A bulk submit is refused at once, before any charge, rather than charged and given back.
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'table.csv', phone_col: 'Phone', csv_content: 'Phone\n201-234-0001\n' },
    });
    expect(submitted.statusCode).toBe(503);
    expect(submitted.json().message).toMatch(/federal is required/);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 5, sum: 5 });

    referenceData.ref.update({ dnc: new DncSet([dncList('federal', [2012340002])]) });
    expect((await verify(t, headers, '201-234-0001')).body).toMatchObject({
      dnc: 0,
      dnc_lists_checked: ['federal'],
    });
    expect((await verify(t, headers, '201-234-0002')).body).toMatchObject({
      dnc: 1,
      dnc_sources: ['federal'],
    });
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json().status).toBe('ok');
  });

  it('refuses a setting that names no list', () => {
    expect(() => loadConfig({ SCRUB_REQUIRE_DNC: 'federal,texas' })).toThrow(
      /SCRUB_REQUIRE_DNC.*names do-not-call lists: federal, or state:XX/,
    );
    expect(loadConfig({ SCRUB_REQUIRE_DNC: ' federal , state:TX,federal' }).requireDnc).toEqual([
      'federal',
      'state:TX',
    ]);
  });
});
