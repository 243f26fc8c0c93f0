import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIdentity } from '../../test/id-tokens.js';
import { saveTestCard } from '../../test/saved-cards.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { fingerprintOf } from './idempotency.js';

const PAYG = '79541679412213';
const address = { customer_name: 'Ida Potent', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe('Idempotency-Key on every POST, PUT, PATCH and DELETE', () => {
  let t: TestApp;
  let accounts = 0;
  let id: Awaited<ReturnType<typeof createTestIdentity>>;

  beforeAll(async () => {
    id = await createTestIdentity();
    t = await createTestApp({}, { tokenVerifier: id.verifier });
    // The built-in payment provider is reached over HTTP, on the service's own port.
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(() => t?.close());

  async function account(credits = 0) {
    accounts++;
    const profile = await ensureProfile(t.database.db, {
      sub: `idem-${accounts}`,
      email: `idem${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    if (credits > 0)
      await applyLedgerEntry(t.database.db, { profileId: profile.id, delta: credits, kind: 'grant' });
    const { api_key } = await rotateApiKey(t.database.db, profile.id);
    return { profileId: profile.id, key: api_key };
  }

  const send = async (
    apiKey: string,
    method: 'POST' | 'PUT',
    url: string,
    payload: object | undefined,
    key?: string,
  ) => {
    const res = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { 'x-api-key': apiKey, ...(key ? { 'idempotency-key': key } : {}) },
    });
    return { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] };
  };

  it('a purchase repeated with its key charges once and answers the first result; another body is a 422', async () => {
    const a = await account();
    expect(
      (
        await send(
          a.key,
          'POST',
          '/payment/setup',
          { ...address, payment_method_id: 'pm_card_visa' },
          'setup-1',
        )
      ).status,
    ).toBe(200);
    const buy = { reference_code: PAYG, amount: 5 };
    const first = await send(a.key, 'POST', '/payment', buy, 'buy-1');
    const again = await send(a.key, 'POST', '/payment', buy, 'buy-1');
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body, replayed: 'true' });
    const purchases = await t.database.db
      .selectFrom('purchases')
      .select('id')
      .where('profile_id', '=', a.profileId)
      .execute();
    expect(purchases).toHaveLength(2); // the card verification and one purchase
    const other = await send(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 10 }, 'buy-1');
    expect(other).toMatchObject({ status: 422, body: { error: { code: 'idempotency_key_reused' } } });
    // The same key from another account is another request.
    const b = await account();
    expect((await send(b.key, 'POST', '/payment', buy, 'buy-1')).body.error.code).toBe(
      'payment_method_required',
    );
    const totals = await ledgerTotals(t.database.db, a.profileId);
    expect(totals).toMatchObject({ balance: 700 + 2857, sum: 700 + 2857 });
  });

  it('a declined purchase retried with its key answers the same refusal and never charges; bad input is not kept', async () => {
    const a = await account();
    await send(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' }, 'setup-d');
    // A card that saves fine and declines every charge.
    const declining = await send(a.key, 'PUT', '/payment-method', {
      payment_method_id: await saveTestCard(t.app, t.database.db, a.profileId, 'pm_card_chargeCustomerFail'),
    });
    expect(declining.status).toBe(200);
    const buy = { reference_code: PAYG, amount: 5 };
    const first = await send(a.key, 'POST', '/payment', buy, 'buy-declined');
    expect(first).toMatchObject({ status: 402, body: { error: { code: 'card_declined' } } });
    const again = await send(a.key, 'POST', '/payment', buy, 'buy-declined');
    expect(again).toMatchObject({ status: 402, body: first.body, replayed: 'true' });
    // Even with a good card now, the key keeps its answer: the retry never charges.
    const [visa] = (
      await t.app.inject({ method: 'GET', url: '/payment-methods', headers: { 'x-api-key': a.key } })
    )
      .json()
      .payment_methods.filter((card: { last4: string }) => card.last4 === '4242');
    await send(a.key, 'PUT', '/payment-method', { payment_method_id: visa.id });
    expect(await send(a.key, 'POST', '/payment', buy, 'buy-declined')).toMatchObject({
      status: 402,
      body: first.body,
    });
    const purchases = await t.database.db
      .selectFrom('purchases')
      .select('id')
      .where('profile_id', '=', a.profileId)
      .execute();
    expect(purchases).toHaveLength(1); // the card verification only
    // A request refused before any work keeps nothing: the same key with the request fixed is served.
    const bad = await send(a.key, 'POST', '/payment', { reference_code: PAYG, amount: -5 }, 'buy-fixed');
    expect(bad.status).toBe(400);
    const fixed = await send(a.key, 'POST', '/payment', buy, 'buy-fixed');
    expect(fixed).toMatchObject({ status: 200, body: { credits_added: 2857 } });
    expect(fixed.replayed).toBeUndefined();
  });

  it('a bulk job created and submitted twice with one key is one job, charged once', async () => {
    const a = await account(10);
    const job = { file_name: 'leads.csv', phone_col: 0, csv_content: 'phone\n2023334444\n2023336666\n' };
    const first = await send(a.key, 'POST', '/bulk/jobs', job, 'job-1');
    const again = await send(a.key, 'POST', '/bulk/jobs', job, 'job-1');
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, replayed: 'true' });
    expect(again.body.job_id).toBe(first.body.job_id);
    const jobs = await t.database.db
      .selectFrom('bulk_jobs')
      .select('id')
      .where('profile_id', '=', a.profileId)
      .execute();
    expect(jobs).toHaveLength(1);
    expect((await ledgerTotals(t.database.db, a.profileId)).balance).toBe(8);

    const created = await send(a.key, 'POST', '/bulk/jobs', { file_name: 'b.csv', phone_col: 0 }, 'job-2');
    const submit = `/bulk/jobs/${created.body.job_id}/submit`;
    const noFile = await send(a.key, 'POST', submit, undefined, 'submit-1');
    expect(noFile.status).toBe(409);
    // A failed request frees its key: the retry does the work afresh.
    expect((await send(a.key, 'POST', submit, undefined, 'submit-1')).status).toBe(409);
  });

  it('a key rotation repeated with its key rotates once: the key answered first keeps working', async () => {
    // Signed in with a session (an API key caller's own key stops working when it is rotated).
    const authorization = `Bearer ${await id.token({ sub: 'idem-rotate', email: 'rotate@example.com' })}`;
    const rotate = async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/apikey',
        headers: { authorization, 'idempotency-key': 'rotate-1' },
      });
      return { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] };
    };
    const first = await rotate();
    const again = await rotate();
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body, replayed: 'true' });
    const rows = await t.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', first.body.api_key_id)
      .execute();
    const all = await t.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('profile_id', '=', rows[0]!.profile_id)
      .execute();
    expect(all).toHaveLength(1);
    const newKey = first.body.api_key as string;
    expect(
      (await t.app.inject({ method: 'GET', url: '/credits', headers: { 'x-api-key': newKey } })).statusCode,
    ).toBe(200);
    // Only a hash of the key and a sealed answer are stored: the database never holds the API key.
    const stored = await t.database.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(newKey);
    expect(JSON.stringify(stored)).not.toContain('rotate-1');
  });

  it('a batch check repeated with its key answers the first answer, stored compressed, and charges once', async () => {
    const a = await account(5_000);
    const phones = Array.from({ length: 2_000 }, (_, i) => `201${200 + (i % 700)}${String(1000 + i)}`);
    const first = await send(a.key, 'POST', '/verify', { phones }, 'batch-1');
    const again = await send(a.key, 'POST', '/verify', { phones }, 'batch-1');

    expect(first.status).toBe(200);
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect((await ledgerTotals(t.database.db, a.profileId)).balance).toBe(
      5_000 - first.body.credits_deducted,
    );
    // About 800 KB of answer: kept compressed, not as the megabytes it is.
    const stored = await t.database.db
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('scope', '=', a.profileId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(first.body).length).toBeGreaterThan(700_000);
    expect(stored.response_body?.length).toBeLessThan(200_000);
  });

  it('replays an answer stored before answers were compressed', async () => {
    const a = await account();
    const key = 'stored-before';
    const body = {
      api_key: 'sk_old_answer',
      api_key_id: 'k1',
      last4: 'swer',
      created_at: '2026-11-24T10:00:00.000Z',
    };
    // The sealing of the earlier release: AES-256-GCM over the JSON, no compression, no prefix.
    const iv = randomBytes(12);
    const cipher = createCipheriv(
      'aes-256-gcm',
      createHash('sha256').update(`seal:${a.profileId}:${key}`).digest(),
      iv,
    );
    const sealed = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final()]);
    await t.database.db
      .insertInto('idempotency_keys')
      .values({
        scope: a.profileId,
        key: createHash('sha256').update(`lookup:${key}`).digest('hex'),
        fingerprint: fingerprintOf('PUT', '/apikey', undefined),
        status_code: 200,
        response_body: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64'),
        completed_at: new Date(),
      })
      .execute();

    expect(await send(a.key, 'PUT', '/apikey', undefined, key)).toEqual({
      status: 200,
      body,
      replayed: 'true',
    });
  });

  it('refuses a malformed key, and a key still in progress is a 409', async () => {
    const a = await account();
    const bad = await send(a.key, 'PUT', '/apikey', undefined, 'has space');
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } });
    const [one, two] = await Promise.all([
      send(a.key, 'POST', '/bulk/jobs', { file_name: 'x.csv', phone_col: 0 }, 'race-1'),
      send(a.key, 'POST', '/bulk/jobs', { file_name: 'x.csv', phone_col: 0 }, 'race-1'),
    ]);
    const statuses = [one.status, two.status].sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const jobs = await t.database.db
      .selectFrom('bulk_jobs')
      .select('id')
      .where('profile_id', '=', a.profileId)
      .execute();
    expect(jobs).toHaveLength(1);
  });
});
