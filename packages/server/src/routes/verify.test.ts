import { ErrorEnvelopeSchema, LINE_TYPES, type LineType, VerifyResultSchema } from '@scrub/contract';
import {
  checkPhone,
  DncListBuilder,
  DncSet,
  type LineType as EngineLineType,
  sampleExchangeTable,
} from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { InternalDncLists, ReferenceData } from '../reference-data/reference-data.js';

const dncList = (name: string, numbers: number[], version = 'v1') => {
  const builder = new DncListBuilder(name);
  for (const number of numbers) builder.add(number);
  return builder.build(version, RELEASED_TODAY);
};

describe.each(testDatabases())('GET /verify on $kind', (database) => {
  let t: TestApp;
  let referenceData: ReferenceData;
  let accounts = 0;

  beforeAll(async () => {
    referenceData = new ReferenceData({ exchange: sampleExchangeTable(), dnc: new DncSet() });
    t = await createTestApp({}, { database: await database.open(), referenceData });
  });
  afterAll(() => t?.close());

  /** A new account with an API key and `credits` credits. */
  async function account(credits: number, plan: { plan_reference?: string } = {}) {
    accounts++;
    const db = t.database.db;
    const profile = await ensureProfile(db, {
      sub: `verify-${accounts}`,
      email: `v${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    if (plan.plan_reference) {
      await db
        .updateTable('profiles')
        .set({ plan_reference: plan.plan_reference })
        .where('id', '=', profile.id)
        .execute();
    }
    if (credits > 0) await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(db, profile.id);
    return { profileId: profile.id, key: api_key };
  }

  async function verify(key: string, p: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: '/verify',
      query: { p },
      headers: { 'x-api-key': key },
    });
    return { status: res.statusCode, body: res.json() };
  }

  it("writes its answer byte for byte as the contract's serializer would, proofs and unlimited holders included", async () => {
    // The route writes its answer with JSON.stringify instead of checking it with zod first: the
    // text must be what zod's parse of it, written again, gives (every field, in the contract's
    // order, nothing more).
    const payer = await account(10);
    const unlimited = await account(0, { plan_reference: '79541679412214' });
    for (const { key } of [payer, unlimited]) {
      const queries: Record<string, string>[] = [
        { p: '201-234-5678' },
        { p: '201-234-5678' }, // the repeat, from the cache
        { p: '800-356-9377' },
        { p: '202-333-4444 x12' },
        { p: 'not a "number" \\ é' },
        { p: '123-456-7890' },
        { p: '219-234-5678', proof: '1' },
      ];
      for (const query of queries) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/verify',
          query,
          headers: { 'x-api-key': key },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toBe(JSON.stringify(VerifyResultSchema.parse(JSON.parse(res.body))));
        if (query.proof) expect(res.json().proof).toEqual(expect.any(String));
      }
    }
  });

  it('answers three kinds of number differently, and charges only the valid ones', async () => {
    const { key, profileId } = await account(10);
    const geographic = await verify(key, '201-234-5678');
    expect(geographic.status).toBe(200);
    const first = VerifyResultSchema.parse(geographic.body);
    // No DNC list is loaded: the answer says "not checked", never clean.
    expect(first).toMatchObject({
      phone_number: '+12012345678',
      dnc: null,
      dnc_lists_checked: [],
      cached: false,
      credits_deducted: 1,
      credits_remaining: 9,
      invalid_reason: null,
      data_source: 'sample',
    });
    expect(['mobile', 'landline', 'voip']).toContain(first.line_type);
    expect(first.dataset_versions).toMatchObject({ nanpa_npa: '2025-11-26', exchange: 'sample-v1' });

    const tollFree = VerifyResultSchema.parse((await verify(key, '(800) 555-1234')).body);
    expect(tollFree).toMatchObject({ line_type: 'toll_free', credits_deducted: 1, credits_remaining: 8 });

    const invalid = VerifyResultSchema.parse((await verify(key, '1234567890')).body);
    expect(invalid).toMatchObject({
      line_type: 'invalid',
      dnc: null,
      credits_deducted: 0,
      credits_remaining: 8,
    });
    expect(invalid.invalid_reason).toBeTruthy();
    expect(invalid.invalid_message).toMatch(/area code/i);

    expect(await ledgerTotals(t.database.db, profileId)).toEqual({ balance: 8, sum: 8, entries: 3 });
  });

  it.each([
    ['a foreign number', '+44 20 7946 0958', /not a US|United Kingdom|outside/i],
    ['letters only', 'call me maybe', /./],
    ['a spreadsheet number that lost digits', '2.01555E+09', /scientific|digits/i],
    ['binary bytes', '\u00ff\u0001\u0002', /./],
  ])('answers %s as invalid with a reason, free', async (_, p, message) => {
    const { key } = await account(1);
    const { status, body } = await verify(key, p);
    expect(status).toBe(200);
    expect(body).toMatchObject({ line_type: 'invalid', credits_deducted: 0, credits_remaining: 1 });
    expect(body.invalid_message).toMatch(message);
  });

  it('says the time zones and whether the calling window is open now, for cached answers too', async () => {
    const { key } = await account(10);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // 12:30 UTC in July: 08:30 in New York, 07:30 in Chicago.
      vi.setSystemTime(new Date('2026-07-01T12:30:00Z'));
      // 219 (Indiana) spans Eastern and Central: the strictest answer.
      expect((await verify(key, '219-234-5678')).body).toMatchObject({
        timezones: ['America/New_York', 'America/Chicago'],
        callable_now: false,
        callable_reason: null,
      });
      expect((await verify(key, '317-234-5678')).body).toMatchObject({
        timezones: ['America/New_York'],
        callable_now: true,
      });
      expect((await verify(key, '800-356-9377')).body).toMatchObject({
        timezones: [],
        callable_now: null,
        callable_reason: expect.stringContaining('Toll-free numbers have no local time zone'),
      });
      expect((await verify(key, '123')).body).toMatchObject({ timezones: [], callable_now: null });
      // An hour on, the cached answer is as of now: open in Chicago too.
      vi.setSystemTime(new Date('2026-07-01T13:30:00Z'));
      expect((await verify(key, '219-234-5678')).body).toMatchObject({ cached: true, callable_now: true });
      // The window closes at 21:00 sharp, whatever was answered a moment before in the same minute.
      vi.setSystemTime(new Date('2026-07-02T00:59:00.000Z'));
      expect((await verify(key, '317-234-5678')).body).toMatchObject({ callable_now: true });
      vi.setSystemTime(new Date('2026-07-02T00:59:59.999Z'));
      expect((await verify(key, '317-234-5678')).body).toMatchObject({ callable_now: true });
      vi.setSystemTime(new Date('2026-07-02T01:00:00.000Z'));
      expect((await verify(key, '317-234-5678')).body).toMatchObject({ callable_now: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports an extension and checks the number without it', async () => {
    const { key } = await account(1);
    const { body } = await verify(key, '201-234-5678 x45');
    expect(body).toMatchObject({ phone_number: '+12012345678', extension: '45', credits_deducted: 1 });
  });

  it('answers a repeat from the cache, free, until new data arrives', async () => {
    const { key } = await account(5);
    await verify(key, '2023334444');
    const repeat = await verify(key, '(202) 333-4444');
    expect(repeat.body).toMatchObject({ cached: true, credits_deducted: 0, credits_remaining: 4 });

    const previous = referenceData.ref.update({ dnc: new DncSet([dncList('federal', [2_023_334_444])]) });
    try {
      const fresh = await verify(key, '2023334444');
      expect(fresh.body).toMatchObject({
        cached: false,
        dnc: 1,
        dnc_sources: ['federal'],
        credits_remaining: 3,
      });
      expect(fresh.body.dataset_versions).toMatchObject({ 'dnc:federal': 'v1' });
    } finally {
      referenceData.ref.swap(previous);
    }
  });

  it("counts federal, state and the caller's own internal list, never another account's", async () => {
    const me = await account(10);
    const other = await account(10);
    const previous = referenceData.ref.update({
      dnc: new DncSet([dncList('federal', [2_024_440_001]), dncList('state:TX', [2_024_440_002])]),
      internal: new InternalDncLists([
        dncList(`internal:${me.profileId}`, [2_024_440_003]),
        dncList(`internal:${other.profileId}`, [2_024_440_004]),
      ]),
    });
    try {
      const sources = async (p: string) => (await verify(me.key, p)).body.dnc_sources;
      expect(await sources('2024440001')).toEqual(['federal']);
      expect(await sources('2024440002')).toEqual(['state:TX']);
      expect(await sources('2024440003')).toEqual(['internal']);
      expect((await verify(me.key, '2024440004')).body).toMatchObject({
        dnc: 0,
        dnc_sources: [],
        dnc_lists_checked: ['federal', 'internal'],
      });
      // A Texas list says nothing about a 202 (Washington, DC) number: federal was checked, Texas was not.
      expect((await verify(other.key, '2024440005')).body).toMatchObject({
        dnc: 0,
        dnc_lists_checked: ['federal', 'internal'],
      });
      expect((await verify(other.key, '2024440004')).body).toMatchObject({ dnc: 1 });
    } finally {
      referenceData.ref.swap(previous);
    }
  });

  it('charges unlimited holders nothing and leaves the credit fields out', async () => {
    const { key, profileId } = await account(3, { plan_reference: '79541679412214' });
    const { status, body } = await verify(key, '2023336666');
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('credits_deducted');
    expect(body).not.toHaveProperty('credits_remaining');
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 3, entries: 1 });
  });

  it('refuses a check the balance cannot cover with a 402 that says what it needs', async () => {
    const { key } = await account(0);
    const { status, body } = await verify(key, '2012345678');
    expect(status).toBe(402);
    const envelope = ErrorEnvelopeSchema.parse(body);
    expect(envelope.error.code).toBe('insufficient_credits');
    expect(body).toMatchObject({ credits_required: 1, credits_available: 0 });
    // Refused means not cached either: once paid for, the number is checked and charged.
    expect((await verify(key, '2012345678')).status).toBe(402);
  });

  it('takes exactly 500 of 1,000 concurrent checks with 500 credits, and leaves 0', async () => {
    const { key, profileId } = await account(500);
    const numbers = Array.from({ length: 1000 }, (_, i) => `201${String(2_000_000 + i)}`);
    const results = await Promise.all(numbers.map((p) => verify(key, p)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(500);
    expect(statuses.filter((s) => s === 402)).toHaveLength(500);
    const remaining = results
      .filter((r) => r.status === 200)
      .map((r) => r.body.credits_remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(await ledgerTotals(t.database.db, profileId)).toEqual({ balance: 0, sum: 0, entries: 501 });
  });

  it('charges a number checked twice at once only once', async () => {
    const { key, profileId } = await account(5);
    const [a, b] = await Promise.all([verify(key, '2023335555'), verify(key, '2023335555')]);
    expect([a.body.credits_deducted, b.body.credits_deducted].sort()).toEqual([0, 1]);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 4 });
  });

  it('takes the API key from k as the API page documents', async () => {
    const { key } = await account(1);
    const res = await t.app.inject({ method: 'GET', url: `/verify?p=2012345678&k=${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ credits_remaining: 0 });
  });

  it.each([
    ['no p', '/verify', 400, /p/],
    ['an empty p', '/verify?p=', 400, /p \(the phone number\) is required/],
    ['a p longer than any number', `/verify?p=${'9'.repeat(10_000)}`, 400, /longer than any phone number/],
    ['a NUL character', '/verify?p=201%00234', 400, /query field "p" contains a NUL character/],
  ])('refuses %s with a 400 that says what was wrong, free', async (_, url, status, message) => {
    const { key, profileId } = await account(1);
    const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 1 });
  });

  it('refuses checks with a 503 while imported DNC data cannot be loaded, and charges nothing', async () => {
    const { key, profileId } = await account(5);
    const missing = vi.spyOn(referenceData, 'missing').mockReturnValue(['federal']);
    try {
      const { status, body } = await verify(key, '2012345678');
      expect(status).toBe(503);
      expect(body.message).toMatch(/Checks are paused: the reference data federal could not be loaded/);
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      expect(health.json().status).toBe('degraded');
    } finally {
      missing.mockRestore();
    }
    expect(await ledgerTotals(t.database.db, profileId)).toMatchObject({ balance: 5 });
  });

  it('refuses missing and wrong credentials with a 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/verify?p=2012345678' })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: `/verify?p=2012345678&k=scrub_${'x'.repeat(40)}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('invalid_api_key');
  });
});

describe('line types', () => {
  it('are one list: the engine answers exactly the line types the contract names', () => {
    // The engine imports no contract, so it names them too; tsc checks this line both ways.
    expectTypeOf<EngineLineType>().toEqualTypeOf<LineType>();
    const exchange = sampleExchangeTable();
    for (const phone of ['2012345678', '8005551234', '1234567890']) {
      expect(LINE_TYPES).toContain(checkPhone(phone, exchange).lineType);
    }
  });
});
