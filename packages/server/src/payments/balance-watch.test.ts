import { AutoTopUpSettingsSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { saveTestCard } from '../../test/saved-cards.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { LOCAL_KEYS } from '../config/payment-settings.js';
import { Mailer, readOutbox } from '../mail/mailer.js';
import { StripePaymentProvider } from '../payment-provider/stripe-payment-provider.js';
import { openDatabase } from '../storage/database.js';
import { BalanceWatch } from './balance-watch.js';
import { CardPayments } from './card-payments.js';
import { PaymentLinks } from './payment-links.js';
import { PlanPrices } from './plan-prices.js';

const FLEXIBLE = '79541679412213';
const STANDARD = '79541679412211';
const address = {
  customer_name: 'Ada Buyer',
  line1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postal_code: '07102',
};

describe.each(testDatabases())('auto top-up and the low-balance e-mail on $kind', (database) => {
  let t: TestApp;
  let url: string | undefined;
  let base: string;
  let accounts = 0;

  beforeAll(async () => {
    const handle = await database.open();
    url = handle.url;
    t = await createTestApp(
      { dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } },
      { database: handle },
    );
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(() => t?.close());

  async function call(key: string, method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) {
    const res = await t.app.inject({ method, url: path, payload, headers: { 'x-api-key': key } });
    return { status: res.statusCode, body: res.json() };
  }

  /** An account with card 4242 saved (700 credits from its verification). */
  async function account(card = true) {
    accounts++;
    const email = `topup${accounts}-${database.kind}@example.com`;
    const profile = await ensureProfile(t.database.db, {
      sub: `topup-${accounts}`,
      email,
      name: '',
      role: 'User',
    });
    const { api_key: key } = await rotateApiKey(t.database.db, profile.id);
    if (card) {
      const res = await call(key, 'POST', '/payment/setup', {
        ...address,
        payment_method_id: 'pm_card_visa',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    return { key, profileId: profile.id, email };
  }

  const credits = async (key: string) => (await call(key, 'GET', '/credits')).body.credits as number;
  const attempts = (profileId: string) =>
    t.database.db.selectFrom('auto_top_ups').selectAll().where('profile_id', '=', profileId).execute();
  const mails = async (to: string, kind: string) =>
    (await readOutbox(t.database.db, { to, limit: 50 })).filter((mail) => mail.kind === kind);
  const check = (key: string, n: number) =>
    call(key, 'GET', `/verify?p=20123456${String(n).padStart(2, '0')}`);

  async function setTopUp(key: string, body: object) {
    const res = await call(key, 'PUT', '/payment/auto-top-up', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return AutoTopUpSettingsSchema.parse(res.body);
  }

  /** A second process's watch on the same database (its own connection on PostgreSQL). */
  async function otherProcessWatch() {
    const handle = url ? await openDatabase({ kind: 'postgres', url }) : t.database;
    const provider = new StripePaymentProvider({
      kind: 'local',
      secretKey: LOCAL_KEYS.secretKey,
      publishableKey: LOCAL_KEYS.publishableKey,
      webhookSecret: null,
      endpoint: { url: () => base, prefix: '/_stripe' },
    });
    const mailer = new Mailer({ db: handle.db, logger: false, from: 'scrub@example.com', smtpUrl: null });
    const services = {
      db: handle.db,
      provider,
      mailer,
      prices: new PlanPrices(handle.db, provider),
      links: new PaymentLinks(handle.db, () => base),
    };
    const watch = new BalanceWatch({
      services,
      cards: new CardPayments(services),
      publicUrl: () => base,
      logger: false,
    });
    return { watch, close: () => (url ? handle.close() : Promise.resolve()) };
  }

  it('a check that takes the balance below the threshold buys the pack once, with a receipt and an "Auto top-up" entry', async () => {
    const a = await account();
    const settings = await setTopUp(a.key, {
      enabled: true,
      threshold: 700,
      plan_reference: FLEXIBLE,
      amount: 5,
    });
    expect(settings).toMatchObject({
      enabled: true,
      status: 'active',
      threshold: 700,
      amount: 5,
      credits: 2857,
    });
    expect((await call(a.key, 'GET', '/user')).body.purchase_settings).toEqual({
      scrubs_amount: 700,
      is_scrub_enabled: true,
    });
    expect((await check(a.key, 1)).status).toBe(200);
    await vi.waitFor(async () => expect(await credits(a.key)).toBe(699 + 2857), { timeout: 10_000 });
    // More checks while below nothing, and a sweep, buy nothing more.
    for (let i = 2; i < 6; i++) expect((await check(a.key, i)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await attempts(a.profileId)).toMatchObject([
      { status: 'succeeded', amount_cents: 500, credits_added: 2857 },
    ]);
    const receipts = await mails(a.email, 'receipt');
    expect(receipts.map((mail) => mail.subject)).toContain(
      'Your Scrub receipt: auto top-up, FLEXIBLE CREDITS, $5.00',
    );
    const entries = await t.database.db
      .selectFrom('credit_ledger')
      .select(['kind', 'note', 'delta'])
      .where('profile_id', '=', a.profileId)
      .where('kind', '=', 'purchase')
      .execute();
    expect(entries.map((entry) => entry.note)).toContain('Auto top-up: FLEXIBLE CREDITS ($5.00)');
    const totals = await ledgerTotals(t.database.db, a.profileId);
    expect(totals.balance).toBe(totals.sum);
    expect((await call(a.key, 'GET', '/payment/auto-top-up')).body.last_attempt).toMatchObject({
      status: 'succeeded',
      credits_added: 2857,
    });
  });

  it('a bulk job that takes the balance below the threshold buys once', async () => {
    const a = await account();
    await setTopUp(a.key, { enabled: true, threshold: 698, plan_reference: FLEXIBLE, amount: 5 });
    const created = await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers: { 'x-api-key': a.key },
      payload: { file_name: 'leads.csv', phone_col: 'Phone' },
    });
    expect(created.statusCode).toBe(201);
    const job = created.json();
    const upload = new URL(job.upload_url);
    const put = await t.app.inject({
      method: 'PUT',
      url: upload.pathname + upload.search,
      headers: { 'content-type': 'text/csv' },
      payload: 'Phone\n2012345601\n2012345602\n2012345603\n',
    });
    expect(put.statusCode).toBe(200);
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/bulk/jobs/${job.job_id}/submit`,
      headers: { 'x-api-key': a.key },
    });
    expect(submitted.statusCode).toBe(200);
    await vi.waitFor(
      async () => expect(await attempts(a.profileId)).toMatchObject([{ status: 'succeeded' }]),
      {
        timeout: 10_000,
      },
    );
    expect(await credits(a.key)).toBe(697 + 2857);
  });

  it('many looks at once, from two processes, charge one crossing once', async () => {
    const a = await account();
    await setTopUp(a.key, { enabled: true, threshold: 700, plan_reference: FLEXIBLE, amount: 10 });
    // Below the threshold without a check's nudge: an admin adjustment, say.
    await t.database.db.updateTable('profiles').set({ credits: 100 }).where('id', '=', a.profileId).execute();
    const other = await otherProcessWatch();
    try {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? other.watch.check(a.profileId) : other.watch.sweep())),
      );
      await other.watch.settled();
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await attempts(a.profileId)).toMatchObject([{ status: 'succeeded', amount_cents: 1000 }]);
    const purchases = (await call(a.key, 'GET', '/purchases')).body.purchases;
    expect(purchases.filter((p: { purchase_amount: number }) => p.purchase_amount === 10)).toHaveLength(1);
  });

  it('a top-up cut short (a crash after the claim) is finished by the sweep, charged once', async () => {
    const a = await account();
    await setTopUp(a.key, { enabled: true, threshold: 500, plan_reference: FLEXIBLE, amount: 5 });
    // Claimed three minutes ago by a process that died before it charged.
    await t.database.db
      .insertInto('auto_top_ups')
      .values({
        profile_id: a.profileId,
        status: 'pending',
        plan_reference: FLEXIBLE,
        amount_cents: 500,
        balance_before: 400,
        created_at: new Date(Date.now() - 180_000),
      })
      .execute();
    const other = await otherProcessWatch();
    try {
      await Promise.all([other.watch.sweep(), other.watch.sweep()]);
    } finally {
      await other.close();
    }
    expect(await attempts(a.profileId)).toMatchObject([{ status: 'succeeded', credits_added: 2857 }]);
    expect(await credits(a.key)).toBe(700 + 2857);
  });

  it.each([
    ['pm_card_chargeCustomerFail', /declined/i],
    ['pm_card_authenticationRequired', /3-D Secure/],
  ])('a refused card (%s) stops auto top-up, e-mails the customer and says why', async (pm, reason) => {
    const a = await account();
    const refused = await saveTestCard(t.app, t.database.db, a.profileId, pm);
    expect((await call(a.key, 'PUT', '/payment-method', { payment_method_id: refused })).status).toBe(200);
    await setTopUp(a.key, { enabled: true, threshold: 700, plan_reference: FLEXIBLE, amount: 5 });
    expect((await check(a.key, 7)).status).toBe(200);
    await vi.waitFor(
      async () => expect(await attempts(a.profileId)).toMatchObject([{ status: 'declined' }]),
      {
        timeout: 10_000,
      },
    );
    const settings = AutoTopUpSettingsSchema.parse((await call(a.key, 'GET', '/payment/auto-top-up')).body);
    expect(settings).toMatchObject({ enabled: false, status: 'stopped' });
    expect(settings.stopped_reason).toMatch(reason);
    expect((await call(a.key, 'GET', '/user')).body.purchase_settings.is_scrub_enabled).toBe(false);
    const [mail] = await mails(a.email, 'auto_top_up_declined');
    expect(mail?.subject).toBe('Scrub auto top-up stopped: your card was declined');
    expect(mail?.text_body).toMatch(reason);
    // No retry: more checks and sweeps charge nothing.
    expect((await check(a.key, 8)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await attempts(a.profileId)).toHaveLength(1);
    expect(await credits(a.key)).toBe(698);
  });

  it('e-mails once per crossing of the low-balance threshold, again after the balance rose above it', async () => {
    const a = await account();
    await setTopUp(a.key, { low_balance_threshold: 699 });
    expect((await check(a.key, 10)).status).toBe(200); // 699: not below
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await mails(a.email, 'low_balance')).toHaveLength(0);
    for (let i = 11; i < 14; i++) expect((await check(a.key, i)).status).toBe(200); // 698, 697, 696
    await vi.waitFor(async () => expect(await mails(a.email, 'low_balance')).toHaveLength(1), {
      timeout: 10_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await mails(a.email, 'low_balance')).toHaveLength(1);
    expect((await mails(a.email, 'low_balance'))[0]?.subject).toMatch(
      /^Your Scrub balance is low: 69[678] credits$/,
    );
    // Bought back above it, then (an adjustment) down to 700 and below again: a second e-mail.
    expect(
      (await call(a.key, 'POST', '/payment', { reference_code: FLEXIBLE, amount: 5, currency: 'usd' }))
        .status,
    ).toBe(200);
    await applyLedgerEntry(t.database.db, {
      profileId: a.profileId,
      delta: 700 - (await credits(a.key)),
      kind: 'adjustment',
    });
    expect((await check(a.key, 14)).status).toBe(200);
    expect((await check(a.key, 15)).status).toBe(200);
    await vi.waitFor(async () => expect(await mails(a.email, 'low_balance')).toHaveLength(2), {
      timeout: 10_000,
    });
  });

  it('refuses settings it cannot act on, naming why', async () => {
    const noCard = await account(false);
    const missing = await call(noCard.key, 'PUT', '/payment/auto-top-up', {
      enabled: true,
      threshold: 500,
      plan_reference: FLEXIBLE,
      amount: 5,
    });
    expect(missing.status).toBe(409);
    expect(missing.body.error.code).toBe('payment_method_required');
    const a = await account();
    const cases: [object, number, RegExp][] = [
      [{ threshold: 0 }, 400, /threshold/],
      [{ threshold: 20_000_000 }, 400, /threshold/],
      [{ plan_reference: '123456789' }, 404, /No plan with reference/],
      [{ plan_reference: STANDARD }, 400, /prepaid credit pack/],
      [{ plan_reference: FLEXIBLE, amount: 7 }, 400, /not sold at \$7/],
      [{ enabled: true, threshold: 500 }, 400, /plan_reference/],
      [{ low_balance_threshold: -1 }, 400, /low_balance_threshold/],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(a.key, 'PUT', '/payment/auto-top-up', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    expect((await call(a.key, 'GET', '/payment/auto-top-up')).body).toMatchObject({
      enabled: false,
      status: 'off',
    });
  });
});
