import {
  ErrorEnvelopeSchema,
  MAX_BATCH_NUMBERS,
  VerifyBatchItemSchema,
  VerifyBatchResultSchema,
} from '@scrub/contract';
import { DncListBuilder, DncSet, sampleExchangeTable } from '@scrub/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { RELEASED_TODAY } from '../../test/reference-data-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { ReferenceData } from '../reference-data/reference-data.js';

const federal = (() => {
  const builder = new DncListBuilder('federal');
  builder.add(2013456789);
  return builder.build('v1', RELEASED_TODAY);
})();

// Valid, invalid, a duplicate written two ways, toll free, a DNC-listed number, an extension.
const MIXED = [
  '201-234-5678',
  'not a number',
  '(201) 234-5678',
  '800-356-9377',
  '201.345.6789',
  '123-456-7890',
  '202-333-4444 x12',
  '219-234-5678',
];

/** Fields that differ between one batch and single checks one after another: the charge. */
const withoutCharge = ({ credits_deducted, credits_remaining, cached, ...rest }: Record<string, unknown>) =>
  rest;

describe.each(testDatabases())('POST /verify on $kind', (database) => {
  let t: TestApp;
  let accounts = 0;

  beforeAll(async () => {
    const referenceData = new ReferenceData({ exchange: sampleExchangeTable(), dnc: new DncSet([federal]) });
    t = await createTestApp({}, { database: await database.open(), referenceData });
  });
  afterAll(() => t?.close());

  async function account(credits: number, planReference?: string) {
    accounts++;
    const db = t.database.db;
    const profile = await ensureProfile(db, {
      sub: `batch-${accounts}`,
      email: `b${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    if (credits > 0) await applyLedgerEntry(db, { profileId: profile.id, delta: credits, kind: 'grant' });
    if (planReference) {
      await db
        .updateTable('profiles')
        .set({ plan_reference: planReference })
        .where('id', '=', profile.id)
        .execute();
    }
    const { api_key } = await rotateApiKey(db, profile.id);
    return { profileId: profile.id, key: api_key };
  }

  const batch = async (
    key: string,
    payload: string | { phones: unknown },
    contentType = 'application/json',
  ) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/verify',
      headers: { 'x-api-key': key, 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const single = async (key: string, p: string) =>
    (
      await t.app.inject({ method: 'GET', url: '/verify', query: { p }, headers: { 'x-api-key': key } })
    ).json();
  const balance = async (profileId: string) => (await ledgerTotals(t.database.db, profileId)).balance;

  it('answers each number in order as a single check does, and charges what single checks charge', async () => {
    const singles = await account(100);
    const answers = [];
    for (const phone of MIXED) answers.push(await single(singles.key, phone));
    const singlesCharged = 100 - (await balance(singles.profileId));

    const batched = await account(100);
    const { status, body } = await batch(batched.key, { phones: MIXED });

    expect(status).toBe(200);
    const result = VerifyBatchResultSchema.parse(body);
    expect(result.results.map((item) => item.input)).toEqual(MIXED);
    expect(result.results.map(withoutCharge)).toEqual(
      answers.map((answer, i) => ({ ...withoutCharge(answer), input: MIXED[i] })),
    );
    // 201-234-5678 twice, 800, 201-345-6789 (listed), 202-333-4444, 219: five; the invalid two are free.
    expect(singlesCharged).toBe(5);
    expect(result.credits_deducted).toBe(5);
    expect(result.credits_remaining).toBe(95);
    expect(await balance(batched.profileId)).toBe(95);
    expect(result.results.map((item) => item.credits_deducted)).toEqual([1, 0, 0, 1, 1, 0, 1, 1]);
    // The repeat is the first one's answer, as a single check's repeat comes from the cache.
    expect(result.results[2]).toMatchObject({ cached: true, phone_number: '+12012345678' });
    expect(result.results[4]).toMatchObject({ dnc: 1, dnc_sources: ['federal'] });
    // One ledger entry for the batch.
    const entries = await t.database.db
      .selectFrom('credit_ledger')
      .select(['delta', 'kind'])
      .where('profile_id', '=', batched.profileId)
      .where('kind', '=', 'check')
      .execute();
    expect(entries).toEqual([{ delta: -5, kind: 'check' }]);
  });

  it("writes its answer byte for byte as the contract's serializer would, for every kind of answer", async () => {
    // The route writes its answer with JSON.stringify instead of checking it with zod first: the
    // text must be what zod's parse of it, written again, gives (every field, in the contract's
    // order, nothing more), for answers of every kind and for unlimited holders.
    const odd = [
      '"quoted"',
      'back\\slash',
      'tab\there',
      'é ünïcode ☎',
      '\ud83d\ude00 emoji',
      '201-234-5678 ext. 9',
      ' +1 (201) 345-6789 ',
    ];
    const numbers = Array.from({ length: 300 }, (_, i) => `20${1 + (i % 9)}${200 + i}${String(1000 + i)}`);
    const payer = await account(10_000);
    const unlimited = await account(0, '79541679412214');
    await single(payer.key, '201-234-5678');
    for (const { key } of [payer, unlimited]) {
      for (const [i, phones] of [MIXED, odd, numbers, [...MIXED, ...numbers, ...MIXED]].entries()) {
        // Every other batch with an Idempotency-Key, as the SDK sends: written once, for the
        // store and the reply.
        const res = await t.app.inject({
          method: 'POST',
          url: '/verify',
          headers: {
            'x-api-key': key,
            'content-type': 'application/json',
            ...(i % 2 === 1 ? { 'idempotency-key': `bytes-${key.slice(-6)}-${i}` } : {}),
          },
          payload: JSON.stringify({ phones }),
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toBe(JSON.stringify(VerifyBatchResultSchema.parse(JSON.parse(res.body))));
        expect(Object.keys(JSON.parse(res.body).results[0])).toEqual(
          Object.keys(VerifyBatchItemSchema.shape).filter(
            // The reassigned fields come only with a consent date (reassigned.test.ts).
            (k) =>
              k !== 'proof' &&
              !k.startsWith('reassigned') &&
              (key === payer.key || !k.startsWith('credits_')),
          ),
        );
      }
    }
  });

  it('honours the cache: numbers checked lately are answered cached and free', async () => {
    const { key, profileId } = await account(10);
    await single(key, '201-234-5678');
    const { body } = await batch(key, { phones: ['2012345678', '2023334444'] });

    expect(body.results.map((item: { cached: boolean }) => item.cached)).toEqual([true, false]);
    expect(body.credits_deducted).toBe(1);
    expect(await balance(profileId)).toBe(8);
    // And the batch fills the cache for the next single check.
    expect(await single(key, '202-333-4444')).toMatchObject({ cached: true, credits_deducted: 0 });
  });

  it('charges a number once when batches side by side share it, whichever answers first', async () => {
    const { key, profileId } = await account(1_000);
    const numbers = Array.from({ length: 300 }, (_, i) => `201${260 + (i % 40)}${String(1000 + i)}`);
    // As `scrub verify -` sends a list that repeats itself: several batches in flight at once.
    const batches = [numbers.slice(0, 200), numbers.slice(100, 300), numbers.slice(0, 100), numbers];
    const answered = await Promise.all(batches.map((phones) => batch(key, { phones })));

    expect(answered.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
    const paid = new Map<string, number>();
    for (const { body } of answered) {
      for (const item of body.results as { input: string; credits_deducted: number }[]) {
        paid.set(item.input, (paid.get(item.input) ?? 0) + item.credits_deducted);
      }
    }
    expect([...paid.values()].filter((credits) => credits !== 1)).toEqual([]);
    const deducted = answered.reduce((sum, { body }) => sum + body.credits_deducted, 0);
    expect(deducted).toBe(numbers.length);
    expect(await balance(profileId)).toBe(1_000 - numbers.length);
  });

  it('refuses a batch the balance cannot cover with a 402 saying how many it could pay for, charging nothing', async () => {
    const { key, profileId } = await account(2);
    const { status, body } = await batch(key, { phones: ['2012345678', '2023334444', '2192345678', 'nope'] });

    expect(status).toBe(402);
    expect(ErrorEnvelopeSchema.parse(body)).toMatchObject({
      error: { code: 'insufficient_credits' },
      affordable: 2,
      required: 3,
      credits_required: 3,
      credits_available: 2,
    });
    expect(body.message).toContain('enough for 2 of its numbers');
    expect(await balance(profileId)).toBe(2);
    // Nothing was remembered as paid: the numbers are charged when checked next.
    expect(await single(key, '201-234-5678')).toMatchObject({ cached: false, credits_deducted: 1 });
  });

  it('takes a text/csv body: one number per line, an optional header, blank lines skipped', async () => {
    const { key } = await account(10);
    const { status, body } = await batch(
      key,
      'phone\r\n201-234-5678\r\n\r\n"800-356-9377"\r\nabc\r\n',
      'text/csv',
    );

    expect(status).toBe(200);
    expect(
      body.results.map((item: { input: string; line_type: string }) => [item.input, item.line_type]),
    ).toEqual([
      ['201-234-5678', expect.any(String)],
      ['800-356-9377', 'toll_free'],
      ['abc', 'invalid'],
    ]);
  });

  it(`refuses more than ${MAX_BATCH_NUMBERS.toLocaleString('en-US')} numbers, none, or a number too long, charging nothing`, async () => {
    const { key, profileId } = await account(20_000);
    const tooMany = await batch(key, {
      phones: Array.from({ length: MAX_BATCH_NUMBERS + 1 }, () => '2012345678'),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('phones holds at most 10,000 numbers per request');

    expect((await batch(key, { phones: [] })).body.message).toContain('phones must hold at least one number');
    expect((await batch(key, 'phone\n', 'text/csv')).status).toBe(400);
    expect((await batch(key, { phones: ['2'.repeat(65)] })).status).toBe(400);
    expect(await balance(profileId)).toBe(20_000);
  });

  it('answers a full batch of 10,000 distinct numbers', async () => {
    const { key, profileId } = await account(20_000);
    const phones = Array.from(
      { length: MAX_BATCH_NUMBERS },
      (_, i) => `201${200 + (i % 800)}${String(i).padStart(4, '0')}`,
    );
    const { status, body } = await batch(key, { phones });

    expect(status).toBe(200);
    expect(body.results).toHaveLength(MAX_BATCH_NUMBERS);
    expect(await balance(profileId)).toBe(20_000 - body.credits_deducted);
  });

  it('keeps text/csv for POST /verify: other routes answer 415', async () => {
    const { key } = await account(0);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/user',
      headers: { 'x-api-key': key, 'content-type': 'text/csv' },
      payload: 'a,b\n',
    });
    expect(res.statusCode).toBe(415);
  });
});
