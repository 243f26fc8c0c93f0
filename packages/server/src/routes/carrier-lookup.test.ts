import { VerifyBatchResultSchema, VerifyResultSchema } from '@scrub/contract';
import { ClassCode, DncSet, ExchangeTableBuilder } from '@scrub/engine';
import { sql } from 'kysely';
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

// Where a line type comes from, and a live carrier lookup against a local stand-in for Twilio.

/**
 * Exchange 201-234 is mobile; 201-345 mobile but its block 201-345-6 landline; 201-456 landline but
 * 201-456-7890 (ported) VoIP.
 */
function exchangeData() {
  const builder = new ExchangeTableBuilder();
  builder.setExchange(201_234, ClassCode.MOBILE);
  builder.setExchange(201_345, ClassCode.MOBILE);
  builder.setBlock(2_013_456, ClassCode.LANDLINE);
  builder.setExchange(201_456, ClassCode.LANDLINE);
  builder.setNumber(2_014_567_890, ClassCode.VOIP);
  return builder.build('test-exchanges');
}

const TWILIO: Map<string, StandInAnswer> = new Map([
  // In a mobile exchange, now a VoIP line: ported.
  [
    '+12012340001',
    { type: 'nonFixedVoip', carrier_name: 'Bandwidth/13 - Bandwidth.com - SVR', error_code: null },
  ],
  [
    '+12012340002',
    {
      type: 'mobile',
      carrier_name: 'Verizon Wireless',
      mobile_country_code: '311',
      mobile_network_code: '480',
    },
  ],
  ['+12012340003', { fail: 'hang' }],
  ['+12012340004', { fail: 'http_500' }],
  ['+12012340005', { type: 'pager', carrier_name: 'Pager Co' }],
  ['+12012340006', { type: 'landline', carrier_name: 'Verizon New Jersey' }],
  ['+12012340007', { type: 'mobile', carrier_name: 'T-Mobile USA, Inc.' }],
]);

let accounts = 0;
async function account(t: TestApp, credits: number) {
  accounts++;
  const db = t.database.db;
  const { id } = await ensureProfile(db, {
    sub: `lookup-${accounts}`,
    email: `lookup${accounts}@example.com`,
    name: '',
    role: 'User',
  });
  if (credits > 0) await applyLedgerEntry(db, { profileId: id, delta: credits, kind: 'grant' });
  const { api_key } = await rotateApiKey(db, id);
  return { profileId: id, headers: { 'x-api-key': api_key } };
}

async function verify(t: TestApp, headers: Record<string, string>, p: string, lookup = true) {
  const res = await t.app.inject({
    method: 'GET',
    url: '/verify',
    query: { p, ...(lookup ? { lookup: 'carrier' } : {}) },
    headers,
  });
  return { status: res.statusCode, body: res.json() };
}

describe.each(testDatabases())('line type source and carrier lookups on $kind', (database) => {
  let t: TestApp;
  let standIn: Awaited<ReturnType<typeof startTwilioLookupStandIn>>;

  beforeAll(async () => {
    standIn = await startTwilioLookupStandIn(TWILIO);
    t = await createTestApp(
      {
        dataDir: tempDir(),
        blobStore: { kind: 'local', dir: `${tempDir()}/files` },
        carrierLookup: {
          twilio: { accountSid: STAND_IN_SID, authToken: STAND_IN_TOKEN, baseUrl: standIn.url },
          credits: 2,
          timeoutMs: 300,
        },
      },
      {
        database: await database.open(),
        referenceData: new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() }),
      },
    );
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  it('says in its settings that it offers carrier lookups, and their price', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/config' })).json();
    expect(config.carrier_lookup).toEqual({ offered: true, provider: 'twilio', credits: 2 });
  });

  it('says which table each line type rests on, and ported null, without a lookup', async () => {
    const { headers } = await account(t, 10);
    const source = async (p: string) => VerifyResultSchema.parse((await verify(t, headers, p, false)).body);
    expect(await source('201-234-0001')).toMatchObject({
      line_type: 'mobile',
      line_type_source: 'exchange',
      ported: null,
      carrier_lookup: null,
    });
    expect(await source('201-345-6000')).toMatchObject({
      line_type: 'landline',
      line_type_source: 'thousands_block',
    });
    expect(await source('201-456-7890')).toMatchObject({
      line_type: 'voip',
      line_type_source: 'number_override',
    });
    expect(await source('800-356-9377')).toMatchObject({
      line_type: 'toll_free',
      line_type_source: 'numbering_plan',
    });
    expect(await source('201-555-0123')).toMatchObject({ line_type: 'invalid', line_type_source: null });
    expect(standIn.asked).toEqual([]);
  });

  it('looks a number up when asked, says it was ported, charges the lookup, and reuses the answer for 30 days', async () => {
    const { profileId, headers } = await account(t, 10);
    const first = await verify(t, headers, '201-234-0001');
    expect(first.status).toBe(200);
    expect(VerifyResultSchema.parse(first.body)).toMatchObject({
      line_type: 'voip',
      line_type_source: 'carrier_lookup',
      ported: true,
      cached: false,
      credits_deducted: 3,
      credits_remaining: 7,
      carrier_lookup: {
        status: 'answered',
        provider: 'twilio',
        provider_type: 'nonFixedVoip',
        carrier_name: 'Bandwidth/13 - Bandwidth.com - SVR',
        message: null,
      },
    });
    expect(standIn.asked).toEqual(['+12012340001']);

    // The same account again: the cached answer, free.
    expect((await verify(t, headers, '201-234-0001')).body).toMatchObject({
      cached: true,
      credits_deducted: 0,
    });
    // Another account: the kept answer, not asked of Twilio again, charged as a lookup.
    const other = await account(t, 10);
    expect((await verify(t, other.headers, '201-234-0001')).body).toMatchObject({
      line_type_source: 'carrier_lookup',
      credits_deducted: 3,
    });
    expect(standIn.asked).toEqual(['+12012340001']);
    // After 30 days, it is asked again.
    await sql`update carrier_lookups set looked_up_at = looked_up_at - interval '31 days'`.execute(
      t.database.db,
    );
    const third = await account(t, 10);
    await verify(t, third.headers, '201-234-0001');
    expect(standIn.asked).toEqual(['+12012340001', '+12012340001']);

    // A lookup that agrees with the tables: ported stays null (it cannot tell).
    expect((await verify(t, headers, '201-234-0002')).body).toMatchObject({
      line_type: 'mobile',
      line_type_source: 'carrier_lookup',
      ported: null,
    });
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(4);
  });

  it('answers from the tables, says so, and takes no lookup credit when the lookup fails or has no line type', async () => {
    const { headers } = await account(t, 10);
    const started = Date.now();
    const hung = VerifyResultSchema.parse((await verify(t, headers, '201-234-0003')).body);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(hung).toMatchObject({
      line_type: 'mobile',
      line_type_source: 'exchange',
      ported: null,
      credits_deducted: 1,
      carrier_lookup: { status: 'failed', provider_type: null, looked_up_at: null },
    });
    expect(hung.carrier_lookup?.message).toContain('did not answer within 300 ms');
    expect((await verify(t, headers, '201-234-0004')).body).toMatchObject({
      line_type_source: 'exchange',
      credits_deducted: 1,
      carrier_lookup: { status: 'failed', message: expect.stringContaining('HTTP 500') },
    });
    expect((await verify(t, headers, '201-234-0005')).body).toMatchObject({
      line_type: 'mobile',
      line_type_source: 'exchange',
      credits_deducted: 1,
      carrier_lookup: { status: 'no_line_type', provider_type: 'pager', carrier_name: 'Pager Co' },
    });
    // A failure is not kept: the next ask asks again.
    const asked = standIn.asked.length;
    await verify(t, (await account(t, 10)).headers, '201-234-0004');
    expect(standIn.asked.length).toBe(asked + 1);
  });

  it('charges a number checked twice at once with a lookup once: the other waits and is answered cached', async () => {
    const { profileId, headers } = await account(t, 10);
    const both = await Promise.all([verify(t, headers, '201-234-0007'), verify(t, headers, '201-234-0007')]);

    expect(both.map(({ status }) => status)).toEqual([200, 200]);
    // Either may be the one that pays.
    const answers = both.map(({ body }) => [body.line_type_source, body.cached, body.credits_deducted]);
    expect(answers.sort()).toEqual([
      ['carrier_lookup', false, 3],
      ['carrier_lookup', true, 0],
    ]);
    expect(standIn.asked.filter((number) => number === '+12012340007')).toHaveLength(1);
    expect((await ledgerTotals(t.database.db, profileId)).balance).toBe(7);
  });

  it('refuses a lookup the balance cannot pay for before asking Twilio', async () => {
    const { headers } = await account(t, 2);
    const asked = standIn.asked.length;
    const refused = await verify(t, headers, '201-234-0006');
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ credits_required: 3, credits_available: 2 });
    expect(standIn.asked.length).toBe(asked);
    // Without a lookup, the check alone is affordable.
    expect((await verify(t, headers, '201-234-0006', false)).body).toMatchObject({ credits_deducted: 1 });
  });

  it('looks up a batch when asked, charging each answered lookup', async () => {
    const { headers } = await account(t, 20);
    const res = await t.app.inject({
      method: 'POST',
      url: '/verify',
      headers,
      payload: { phones: ['201-234-0006', '201-234-0006', '201-234-0004', 'nope'], lookup: 'carrier' },
    });
    const batch = VerifyBatchResultSchema.parse(res.json());
    expect(
      batch.results.map((r) => [
        r.line_type,
        r.line_type_source,
        r.carrier_lookup?.status ?? null,
        r.credits_deducted,
      ]),
    ).toEqual([
      ['landline', 'carrier_lookup', 'answered', 3],
      ['landline', 'carrier_lookup', 'answered', 0],
      ['mobile', 'exchange', 'failed', 1],
      ['invalid', null, null, 0],
    ]);
    expect(batch).toMatchObject({ credits_deducted: 4, credits_remaining: 16 });
  });
});

describe('carrier lookups not set up', () => {
  it('refuses lookup=carrier with a sentence saying so, and answers without it', async () => {
    const t = await createTestApp(
      { dataDir: tempDir() },
      { referenceData: new ReferenceData({ exchange: exchangeData(), dnc: new DncSet() }) },
    );
    try {
      const { headers } = await account(t, 5);
      const refused = await verify(t, headers, '201-234-0001');
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('Carrier lookups are not offered');
      expect((await verify(t, headers, '201-234-0001', false)).body).toMatchObject({
        line_type_source: 'exchange',
      });
    } finally {
      await t.close();
    }
  });
});
