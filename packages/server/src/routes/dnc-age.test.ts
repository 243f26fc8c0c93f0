import {
  BulkJobQuoteSchema,
  BulkJobSchema,
  CreatedBulkJobSchema,
  FileProofSchema,
  HealthSchema,
  VerifyProofStatementSchema,
  VerifyResultSchema,
} from '@scrub/contract';
import { ClassCode, DncList, DncListBuilder, DncSet, ExchangeTableBuilder } from '@scrub/engine';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { Mailer } from '../mail/mailer.js';
import { DncAgeAlerts } from '../reference-data/dnc-age-alerts.js';
import { ReferenceData } from '../reference-data/reference-data.js';

// A registry's age, as a customer and an operator see it: the clock moves, the lists do not.

const DAY = 86_400_000;
/** The federal list's release date; New Jersey's came out 20 days later. */
const RELEASED = '2026-01-01';
const at = (days: number) => new Date(Date.parse(`${RELEASED}T00:00:00Z`) + days * DAY);

const dated = (name: string, numbers: number[], releasedOn: string) => {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return DncList.fromShared({ ...builder.build(`v-${releasedOn}`).toShared(), releasedOn });
};

/** Area code 201 (New Jersey) is covered: exchange 201-234 is mobile. 512 (Texas) is not covered. */
function exchangeData() {
  const builder = new ExchangeTableBuilder();
  builder.coverArea(201);
  builder.setExchange(201234, ClassCode.MOBILE);
  return builder.build('test-exchanges');
}

function lists() {
  return new DncSet([dated('federal', [2012340002], RELEASED), dated('state:NJ', [], '2026-01-21')]);
}

let accounts = 0;
async function account(t: TestApp, credits: number) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `age-${accounts}`,
    email: `age${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { profileId: id, headers: { 'x-api-key': api_key } };
}

async function verify(t: TestApp, headers: Record<string, string>, p: string, proof = false) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/verify',
    query: { p, ...(proof ? { proof: '1' } : {}) },
    headers,
  });
  return { status: res.statusCode, body: res.json() };
}

async function health(t: TestApp) {
  return HealthSchema.parse((await t.app.inject({ method: 'GET', url: '/health' })).json());
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

const federalOn = (days: number, stale: boolean) => ({
  list: 'federal',
  released_on: RELEASED,
  age_days: days,
  stale,
});
const newJerseyOn = (days: number) => ({
  list: 'state:NJ',
  released_on: '2026-01-21',
  age_days: days - 20,
  stale: false,
});

describe.each(testDatabases())('do-not-call lists past their age on $kind', (database) => {
  let t: TestApp;
  let clock: Date;
  let referenceData: ReferenceData;

  beforeAll(async () => {
    clock = at(10);
    referenceData = new ReferenceData(
      { exchange: exchangeData(), dnc: lists() },
      { maxAgeDays: 31, now: () => clock },
    );
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: await database.open(), referenceData },
    );
  });
  afterAll(() => t?.close());

  it('answers a number only a stale list covers as unchecked, still flags a listed one, and says each list’s date', async () => {
    const { headers } = await account(t, 20);
    clock = at(10);
    expect(VerifyResultSchema.parse((await verify(t, headers, '512-736-0100')).body)).toMatchObject({
      dnc: 0,
      dnc_lists_checked: ['federal'],
      dnc_lists: [federalOn(10, false)],
    });
    expect(await health(t)).toMatchObject({ status: 'ok', dnc_lists: { stale: [] } });

    // 31 days after its release, at 00:00 UTC: the answer cached ten days ago is not reused.
    clock = at(31);
    expect(VerifyResultSchema.parse((await verify(t, headers, '512-736-0100')).body)).toMatchObject({
      dnc: null,
      cached: false,
      dnc_lists_checked: [],
      dnc_lists: [federalOn(31, true)],
    });
    expect((await verify(t, headers, '201-234-0002')).body).toMatchObject({
      dnc: 1,
      dnc_sources: ['federal'],
      dnc_lists_checked: ['federal', 'state:NJ'],
    });
    // New Jersey's own list is fresh: its silence still makes its numbers clean.
    expect((await verify(t, headers, '201-234-0001')).body).toMatchObject({
      dnc: 0,
      dnc_lists_checked: ['state:NJ'],
      dnc_lists: [federalOn(31, true), newJerseyOn(31)],
    });
    expect(await health(t)).toMatchObject({
      status: 'degraded',
      dnc_lists: {
        loaded: ['federal', 'state:NJ'],
        missing_required: [],
        stale: ['federal'],
        lists: [federalOn(31, true), newJerseyOn(31)],
      },
    });

    // A proof of an answer resting on the stale list says so, and its valid_until is already past.
    const proved = VerifyResultSchema.parse((await verify(t, headers, '512-736-0100', true)).body);
    const statement = VerifyProofStatementSchema.parse(decodeJwt(proved.proof!));
    expect(statement).toMatchObject({
      dnc: null,
      dnc_lists: [federalOn(31, true)],
      ftc_registry: { release_date: RELEASED },
      checked_at: at(31).toISOString(),
      valid_until: at(31).toISOString(),
    });
  });

  it('scrubs a file the same way, records the lists’ dates on the job, and its proof and Clean filter say why', async () => {
    clock = at(31);
    const { headers } = await account(t, 20);
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: {
        file_name: 'aged.csv',
        phone_col: 'Phone',
        csv_content: 'Phone\n512-736-0100\n201-234-0002\n201-234-0001\n',
      },
    });
    expect(created.statusCode).toBe(201);
    const job = await settled(t, headers, created.json().job_id);
    expect(job).toMatchObject({
      status: 'completed',
      dnc_status: { unchecked: 1, dnc: 1, clean: 1 },
      dnc_lists: [federalOn(31, true), newJerseyOn(31)],
    });
    const result = await t.app.inject({ method: 'GET', url: new URL(job.result_url!).pathname });
    expect(
      result.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n'),
    ).toEqual([
      'Phone,Line Type,DNC',
      '512-736-0100,unknown_geographic,unchecked',
      '201-234-0002,mobile,1',
      '201-234-0001,mobile,0',
    ]);
    const proof = FileProofSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/files/${job.file_reference}/proof`, headers })).json(),
    );
    expect(proof.statement).toMatchObject({
      dnc_lists: [federalOn(31, true), newJerseyOn(31)],
      ftc_registry: { release_date: RELEASED },
      valid_until: at(31).toISOString(),
    });

    // A file of numbers only the stale list covers: nothing is clean, and the Clean filter says why.
    const unchecked = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: {
        file_name: 'texas.csv',
        phone_col: 'Phone',
        csv_content: 'Phone\n512-736-0100\n512-736-0101\n',
      },
    });
    const texas = await settled(t, headers, unchecked.json().job_id);
    const clean = await t.app.inject({
      method: 'GET',
      url: `${new URL(texas.result_url!).pathname}?dnc=0`,
    });
    expect(clean.body.replace(/^\uFEFF/, '').trimEnd()).toBe('Phone,Line Type,DNC');
    expect(clean.headers['x-scrub-dnc-notice']).toMatch(
      /^No row is clean because no number was checked: 2 rows answered unchecked/,
    );
    const listed = await t.app.inject({ method: 'GET', url: '/files', headers });
    const file = listed
      .json()
      .files.find((f: { file_reference: string }) => f.file_reference === texas.file_reference);
    expect(file.dnc_notice).toMatch(/^No row is clean because no number was checked/);
    expect(
      listed.json().files.find((f: { file_reference: string }) => f.file_reference === job.file_reference),
    ).not.toHaveProperty('dnc_notice');
  });

  it('quotes a job with the lists it would be checked against and their dates', async () => {
    clock = at(31);
    const { headers } = await account(t, 5);
    const created = CreatedBulkJobSchema.parse(
      (
        await t.app.inject({
          method: 'POST',
          url: '/bulk/jobs',
          headers,
          payload: { file_name: 'q.csv', phone_col: 'Phone' },
        })
      ).json(),
    );
    const url = new URL(created.upload_url!);
    await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'text/csv' },
      payload: 'Phone\n512-736-0100\n',
    });
    const quote = BulkJobQuoteSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/bulk/jobs/${created.job_id}/quote`, headers })).json(),
    );
    expect(quote.dnc_lists).toEqual([federalOn(31, true), newJerseyOn(31)]);
    expect(quote.dnc_notice).toBe(
      'federal (released 2026-01-01, 31 days ago) is older than 31 days: it still flags the numbers it holds, but numbers not on it answer unchecked, not clean.',
    );
  });

  it('warns admins 7 days and 1 day before a list goes stale, once each per list version, whatever the processes', async () => {
    const mailer = new Mailer({ db: t.database.db, logger: false, from: 'scrub@example.com', smtpUrl: null });
    const alerts = () =>
      new DncAgeAlerts({
        db: t.database.db,
        referenceData,
        mailer,
        to: ['ops@example.com'],
        logger: false,
      });
    const sent = async () =>
      (
        await t.database.db
          .selectFrom('mail_outbox')
          .select(['subject', 'text_body'])
          .where('kind', '=', 'dnc_list_age')
          .orderBy('id')
          .execute()
      ).map((mail) => mail.subject);

    const one = alerts();
    const other = alerts();
    await one.check(at(23));
    expect(await sent()).toEqual([]);
    await one.check(at(24));
    await other.check(at(24.5));
    await one.check(at(29));
    expect(await sent()).toEqual(['Do-not-call list federal goes stale in 7 days']);
    await Promise.all([one.check(at(30)), other.check(at(30))]);
    expect(await sent()).toEqual([
      'Do-not-call list federal goes stale in 7 days',
      'Do-not-call list federal goes stale tomorrow',
    ]);
    // Stale already: nothing more. New Jersey's list, released 20 days later, has its own turn.
    await one.check(at(44));
    expect(await sent()).toEqual([
      'Do-not-call list federal goes stale in 7 days',
      'Do-not-call list federal goes stale tomorrow',
      'Do-not-call list state:NJ goes stale in 7 days',
    ]);
    await Promise.all([one.stop(), other.stop()]);

    // A new release of the federal list is warned about afresh.
    const previous = referenceData.ref.update({
      dnc: new DncSet([dated('federal', [], '2026-02-10'), dated('state:NJ', [], '2026-01-21')]),
    });
    try {
      await alerts().check(new Date(Date.parse('2026-03-06T00:00:00Z')));
      expect((await sent()).at(-1)).toBe('Do-not-call list federal goes stale in 7 days');
      expect(await sent()).toHaveLength(4);
    } finally {
      referenceData.ref.swap(previous);
    }
  });
});

describe('SCRUB_REQUIRE_DNC=federal with a stale federal list', () => {
  let t: TestApp;
  let clock: Date;

  beforeAll(async () => {
    clock = at(40);
    const referenceData = new ReferenceData(
      { exchange: exchangeData(), dnc: lists() },
      { maxAgeDays: 31, now: () => clock },
    );
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

  it('refuses checks and bulk submits at once (503), charging nothing, as if the list were missing', async () => {
    const { headers, profileId } = await account(t, 5);
    const refused = await verify(t, headers, '201-234-0001');
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe(
      'Checks are paused: the do-not-call list federal (released 2026-01-01, 40 days ago) is required by this service (SCRUB_REQUIRE_DNC) and older than 31 days (SCRUB_DNC_MAX_AGE_DAYS), too old to call a number clean. The operator imports a newer release with "scrub-server data import".',
    );
    expect(await health(t)).toMatchObject({
      status: 'degraded',
      dnc_lists: { required: ['federal'], missing_required: ['federal'], stale: ['federal'] },
    });

    const inline = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers,
      payload: { file_name: 'x.csv', phone_col: 'Phone', csv_content: 'Phone\n201-234-0001\n' },
    });
    expect(inline.statusCode).toBe(503);
    const created = CreatedBulkJobSchema.parse(
      (
        await t.app.inject({
          method: 'POST',
          url: '/bulk/jobs',
          headers,
          payload: { file_name: 'y.csv', phone_col: 'Phone' },
        })
      ).json(),
    );
    const url = new URL(created.upload_url!);
    await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      headers: { 'content-type': 'text/csv' },
      payload: 'Phone\n201-234-0001\n',
    });
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/bulk/jobs/${created.job_id}/submit`,
      headers,
    });
    expect(submitted.statusCode).toBe(503);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 5, entries: 1 });

    // A new release brings checks back.
    clock = at(20);
    expect((await verify(t, headers, '201-234-0001')).body).toMatchObject({ dnc: 0 });
  });
});
