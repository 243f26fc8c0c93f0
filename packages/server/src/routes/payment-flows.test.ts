import { ErrorEnvelopeSchema, PurchaseResultSchema } from '@scrub/contract';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveTestCard } from '../../test/saved-cards.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { LOCAL_KEYS } from '../config/payment-settings.js';
import { StripePaymentProvider } from '../payment-provider/stripe-payment-provider.js';
import { WEBHOOK_PATH } from '../payments/webhook-route.js';
import { signWebhook } from '../webhooks/webhook-signature.js';

const PAYG = '79541679412213';
const BULK = '79541679412216';
const PASS = '79541679412215';
const STANDARD = '79541679412211';
const POWER = '79541679412212';

const address = {
  customer_name: 'Ada Buyer',
  line1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postal_code: '07102',
};

describe('payment routes on the built-in provider', () => {
  let t: TestApp;
  let accounts = 0;
  let publicUrl: string;
  /** Plays Stripe.js: the publishable key, through the official SDK. */
  let browser: Stripe;
  /** The operator's view of the provider, through the official SDK. */
  let stripe: Stripe;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    publicUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    const client = (key: string) =>
      new StripePaymentProvider({
        kind: 'local',
        secretKey: key,
        publishableKey: LOCAL_KEYS.publishableKey,
        webhookSecret: null,
        endpoint: { url: () => publicUrl, prefix: '/_stripe' },
      }).stripe();
    browser = await client(LOCAL_KEYS.publishableKey);
    stripe = await client(LOCAL_KEYS.secretKey);
  }, 60_000);
  afterAll(() => t?.close());

  async function account() {
    accounts++;
    const profile = await ensureProfile(t.database.db, {
      sub: `pay-${accounts}`,
      email: `pay${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    const { api_key } = await rotateApiKey(t.database.db, profile.id);
    return { profileId: profile.id, key: api_key };
  }

  async function call(
    key: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) {
    const res = await t.app.inject({ method, url, payload, headers: { 'x-api-key': key, ...headers } });
    return { status: res.statusCode, body: res.json() };
  }

  const card = async (number: string) =>
    (
      await browser.paymentMethods.create({
        type: 'card',
        card: { number, exp_month: 12, exp_year: 2040, cvc: '123' },
      })
    ).id;

  const credits = async (key: string) => (await call(key, 'GET', '/credits')).body.credits as number;

  async function withCard(pm = 'pm_card_visa') {
    const a = await account();
    const res = await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: pm });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return a;
  }

  it('/config names the built-in provider, its publishable key and its stand-in Stripe.js', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/config' });
    const payments = res.json().payments;
    expect(payments).toMatchObject({ provider: 'local', publishable_key: 'pk_test_local_scrub' });
    expect(payments.js_url).toMatch(/\/_stripe\/js\/v3$/);
    const script = await t.app.inject({ method: 'GET', url: new URL(payments.js_url).pathname });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('window.Stripe = Stripe');
  });

  it('saves card 4242 with the address, takes the $1 verification once: 500 credits + 200 bonus, a receipt', async () => {
    const a = await account();
    expect((await call(a.key, 'GET', '/customer/exists')).body).toEqual({ exists: false });
    expect((await call(a.key, 'GET', '/payment-methods/exists')).body).toEqual({ exists: false });
    const res = await call(a.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: await card('4242424242424242'),
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/Card Added Successfully.*700 credits/);
    expect(await credits(a.key)).toBe(700);
    expect((await call(a.key, 'GET', '/customer/exists')).body).toEqual({ exists: true });
    const methods = (await call(a.key, 'GET', '/payment-methods')).body.payment_methods;
    expect(methods).toMatchObject([{ brand: 'visa', last4: '4242', is_default: true }]);
    const user = (await call(a.key, 'GET', '/user')).body;
    expect(user.address).toMatchObject({ line1: '1 Main St', city: 'Newark', state: 'NJ' });

    const entries = await t.database.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('profile_id', '=', a.profileId)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => [e.kind, e.delta])).toEqual([
      ['purchase', 500],
      ['bonus', 200],
    ]);
    expect(entries[0]!.reference).toMatch(/^pi_/);
    expect(entries[1]!.reference).toBe(entries[0]!.reference);
    const mail = await t.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', `pay${accounts}@example.com`)
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ kind: 'receipt', subject: expect.stringContaining('$1.00') });

    // A second card: saved and made the default, no second verification.
    const second = await call(a.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: 'pm_card_mastercard',
    });
    expect(second.body.message).not.toMatch(/verified/);
    expect(await credits(a.key)).toBe(700);
    const both = (await call(a.key, 'GET', '/payment-methods')).body.payment_methods;
    expect(both).toHaveLength(2);
    const visa = both.find((m: { brand: string }) => m.brand === 'visa');
    expect(visa.is_default).toBe(false);
    const changed = await call(a.key, 'PUT', '/payment-method', { payment_method_id: visa.id });
    expect(changed.body.message).toMatch(/visa ending 4242/);
    const unknown = await call(a.key, 'PUT', '/payment-method', { payment_method_id: 'pm_nope' });
    expect(unknown.status).toBe(404);
  });

  it.each([
    ['4000000000000002', 'card_declined', 'generic_decline'],
    ['pm_card_chargeDeclined', 'card_declined', 'generic_decline'],
    ['4000000000009995', 'card_declined', 'insufficient_funds'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'card_declined', 'insufficient_funds'],
  ])('refuses %s with %s (%s) and adds nothing', async (number, code, declineCode) => {
    const a = await account();
    const pm = number.startsWith('pm_') ? number : await card(number);
    const res = await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: pm });
    expect(res.status).toBe(402);
    expect(ErrorEnvelopeSchema.parse(res.body)).toMatchObject({ error: { code }, decline_code: declineCode });
    expect(await credits(a.key)).toBe(0);
    expect((await call(a.key, 'GET', '/payment-methods/exists')).body).toEqual({ exists: false });
    expect((await call(a.key, 'GET', '/purchases')).body.purchases).toEqual([]);
  });

  it('asks for 3-D Secure (authentication_required with the client secret) and adds nothing until confirmed', async () => {
    const a = await account();
    const res = await call(a.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: await card('4000002500003155'),
    });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      error: { code: 'authentication_required' },
      client_secret: expect.stringMatching(/^seti_/),
    });
    expect(await credits(a.key)).toBe(0);
  });

  it('finishes a card setup after 3-D Secure with its setup_intent_id (the bank is not asked again), then the $1 verification', async () => {
    const a = await account();
    const pm = await card('4000002500003155');
    const first = await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: pm });
    const setupIntent = String(first.body.client_secret).split('_secret_')[0];
    // Not confirmed yet: finishing it is refused, nothing saved.
    const early = await call(a.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: pm,
      setup_intent_id: setupIntent,
    });
    expect(early.status).toBe(402);
    expect((await call(a.key, 'GET', '/payment-methods/exists')).body).toEqual({ exists: false });
    // Another card cannot ride on this setup intent.
    const other = await call(a.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: await card('4242424242424242'),
      setup_intent_id: setupIntent,
    });
    expect(other.status).toBe(402);
    expect(other.body.error.message).toMatch(/not for this card/);

    await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${setupIntent}?outcome=complete` });
    const done = await call(a.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: pm,
      setup_intent_id: setupIntent,
    });
    // The card is saved; its $1 verification is an on-session payment, which this card confirms too.
    expect(done).toMatchObject({ status: 402, body: { error: { code: 'authentication_required' } } });
    expect(String(done.body.client_secret)).toMatch(/^pi_/);
    expect((await call(a.key, 'GET', '/payment-methods')).body.payment_methods).toMatchObject([
      { id: pm, is_default: true },
    ]);
    const payment = String(done.body.client_secret).split('_secret_')[0];
    await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${payment}?outcome=complete` });
    const deadline = Date.now() + 20_000;
    while ((await credits(a.key)) === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await credits(a.key)).toBe(700);
  });

  it('buys plans by reference: amounts of the flexible plans, the $5 minimum, passes; bad choices are 400s', async () => {
    const a = await withCard();
    const buy = (body: object, headers?: Record<string, string>) =>
      call(a.key, 'POST', '/payment', body, headers);
    expect((await buy({ reference_code: PAYG })).body.error.code).toBe('validation_failed');
    expect((await buy({ reference_code: PAYG, amount: 7 })).status).toBe(400);
    expect((await buy({ reference_code: STANDARD })).body.message).toMatch(/monthly plan/);
    expect((await buy({ reference_code: '79541679412210' })).status).toBe(400);
    expect((await buy({ reference_code: '999999999' })).status).toBe(404);
    expect((await buy({ reference_code: PAYG, amount: 'ten' })).status).toBe(400);

    const payg = await buy({ reference_code: PAYG, amount: 10 });
    expect(payg.status).toBe(200);
    expect(PurchaseResultSchema.parse(payg.body)).toMatchObject({
      amount: 10,
      credits_added: 5714,
      message: 'Payment Complete',
    });
    const bulk = await buy({ reference_code: BULK, amount: 83 });
    expect(bulk.body.credits_added).toBe(50_000);
    expect(await credits(a.key)).toBe(700 + 5714 + 50_000);

    const pass = await buy({ reference_code: PASS, amount: 5 });
    expect(pass.body.credits_added).toBe(0);
    const snapshot = (await call(a.key, 'GET', '/credits')).body;
    expect(snapshot).toMatchObject({ has_unlimited: true, credits_remaining: 'unlimited' });
    const check = await call(a.key, 'GET', '/verify?p=2023334444');
    expect(check.status).toBe(200);
    expect(check.body.credits_deducted).toBeUndefined();
    expect(await credits(a.key)).toBe(700 + 5714 + 50_000);

    const history = (await call(a.key, 'GET', '/purchases?per_page=10')).body.purchases;
    expect(history.map((p: { plan_reference: string }) => p.plan_reference)).toEqual([
      PASS,
      BULK,
      PAYG,
      '79541679412210',
    ]);
    const year = new Date().getUTCFullYear();
    const month = new Date().getUTCMonth() + 1;
    expect(
      (await call(a.key, 'GET', `/purchases?year=${year}&month=${month}&per_page=2`)).body.purchases,
    ).toHaveLength(2);
    expect((await call(a.key, 'GET', `/purchases?year=${year - 1}`)).body.purchases).toEqual([]);
    expect((await call(a.key, 'GET', '/purchases?month=13')).status).toBe(400);
    const totals = await ledgerTotals(t.database.db, a.profileId);
    expect(totals.balance).toBe(totals.sum);
  });

  it('a 3-D Secure purchase adds nothing until confirmed, then the delivered payment_intent.succeeded grants it once', async () => {
    const a = await withCard();
    // A card that wants 3-D Secure on every payment, made the default.
    expect(
      (
        await call(a.key, 'PUT', '/payment-method', {
          payment_method_id: await saveTestCard(
            t.app,
            t.database.db,
            a.profileId,
            'pm_card_authenticationRequired',
          ),
        })
      ).status,
    ).toBe(200);
    const buy = await call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
    expect(buy).toMatchObject({ status: 402, body: { error: { code: 'authentication_required' } } });
    expect(await credits(a.key)).toBe(700);
    const intent = String(buy.body.client_secret).split('_secret_')[0];
    // The customer fails, then completes, the bank's check (the provider's test page).
    const fail = await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${intent}?outcome=fail` });
    expect(fail.statusCode).toBeLessThan(400);
    expect(await credits(a.key)).toBe(700);
    const again = await call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
    const secondIntent = String(again.body.client_secret).split('_secret_')[0];
    await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${secondIntent}?outcome=complete` });
    const deadline = Date.now() + 20_000;
    while ((await credits(a.key)) === 700 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await credits(a.key)).toBe(700 + 2857);
    const purchases = await t.database.db
      .selectFrom('purchases')
      .select('provider_object_id')
      .where('profile_id', '=', a.profileId)
      .execute();
    expect(purchases.map((p) => p.provider_object_id)).toContain(secondIntent);
    expect(purchases).toHaveLength(2);
  });

  it('refuses a purchase without a saved card, and a declined saved card adds nothing', async () => {
    const a = await account();
    const res = await call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
    expect(res).toMatchObject({ status: 409, body: { error: { code: 'payment_method_required' } } });
    // 0341: saved fine, every charge declined (so the $1 verification is refused too).
    const b = await account();
    const setup = await call(b.key, 'POST', '/payment/setup', {
      ...address,
      payment_method_id: await card('4000000000000341'),
    });
    expect(setup.body.error.code).toBe('card_declined');
    // A plain sentence for people; the bank's code for programs in decline_code, not in the sentence.
    expect(setup.body.error.message).toBe('Your card was declined.');
    expect(setup.body.decline_code).toBe('generic_decline');
    const buy = await call(b.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
    expect(buy).toMatchObject({ status: 402, body: { error: { code: 'card_declined' } } });
    expect(await credits(b.key)).toBe(0);
  });

  it('subscribes, pauses (checks, bulk and buying answer 403 plan_paused), resumes, switches and cancels', async () => {
    const a = await withCard();
    expect((await call(a.key, 'GET', '/subscription')).body).toEqual({ subscription: null });
    // The seed's checkout fields have no checkout page to return to here: refused, naming what to send.
    const withUrls = await call(a.key, 'POST', '/subscription', {
      price_id: STANDARD,
      success_url: 'https://example.com/ok',
      cancel_url: 'https://example.com/no',
    });
    expect(withUrls.status).toBe(400);
    expect(withUrls.body.error.issues.map((i: { path: string }) => i.path)).toEqual([
      'success_url',
      'cancel_url',
    ]);
    expect(withUrls.body.error.message).toMatch(/no checkout page.*send price_id alone/);
    expect((await call(a.key, 'GET', '/subscription')).body).toEqual({ subscription: null });
    const started = await call(a.key, 'POST', '/subscription', { price_id: STANDARD });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.subscription).toMatchObject({
      plan_reference: STANDARD,
      status: 'active',
      cancel_at_period_end: false,
    });
    expect(await credits(a.key)).toBe(700 + 30_000);
    expect((await call(a.key, 'GET', '/user')).body.user_plan).toMatchObject({
      plan_reference: STANDARD,
      plan_name: 'STANDARD',
    });
    expect((await call(a.key, 'POST', '/subscription', { price_id: POWER })).status).toBe(409);

    const paused = await call(a.key, 'PATCH', '/subscription', { action: 'pause' });
    expect(paused.body.subscription.status).toBe('paused');
    const check = await call(a.key, 'GET', '/verify?p=2023334444');
    expect(check).toMatchObject({ status: 403, body: { error: { code: 'plan_paused' } } });
    const job = await call(a.key, 'POST', '/bulk/jobs', {
      file_name: 'a.csv',
      phone_col: 0,
      csv_content: 'phone\n2015550123\n',
    });
    expect(job).toMatchObject({ status: 403, body: { error: { code: 'plan_paused' } } });
    expect((await call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 })).body.error.code).toBe(
      'plan_paused',
    );

    const resumed = await call(a.key, 'PATCH', '/subscription', { action: 'resume' });
    expect(resumed.body.subscription.status).toBe('active');
    expect((await call(a.key, 'GET', '/verify?p=2023334444')).status).toBe(200);

    // Pausing the account (My Account's Pause) pauses the subscription too: a paused account is not billed.
    expect((await call(a.key, 'PUT', '/user/plan-status', { status: 'paused' })).status).toBe(200);
    expect((await call(a.key, 'GET', '/subscription')).body.subscription.status).toBe('paused');
    expect((await call(a.key, 'PUT', '/user/plan-status', { status: 'active' })).status).toBe(200);
    expect((await call(a.key, 'GET', '/subscription')).body.subscription.status).toBe('active');
    expect((await call(a.key, 'GET', '/verify?p=2023334444')).status).toBe(200);

    const switched = await call(a.key, 'PUT', '/subscription', { plan_reference: POWER });
    expect(switched.body.subscription.plan_reference).toBe(POWER);
    const cancelled = await call(a.key, 'DELETE', '/subscription');
    expect(cancelled.body.subscription).toMatchObject({ status: 'active', cancel_at_period_end: true });
    const history = (await call(a.key, 'GET', '/purchases')).body.purchases;
    expect(history[0]).toMatchObject({
      plan_reference: STANDARD,
      purchase_amount: 49,
      credits_added: 30_000,
    });
  });

  it('the unlimited monthly plan skips credit checks in /verify and bulk submit', async () => {
    const a = await withCard();
    const started = await call(a.key, 'POST', '/subscription', { price_id: '79541679412214' });
    expect(started.body.subscription.status).toBe('active');
    const before = await credits(a.key);
    const check = await call(a.key, 'GET', '/verify?p=2023334445');
    expect(check.status).toBe(200);
    expect(check.body.credits_remaining).toBeUndefined();
    const job = await call(a.key, 'POST', '/bulk/jobs', {
      file_name: 'a.csv',
      phone_col: 0,
      csv_content: 'phone\n2015550123\n2015550125\n',
    });
    expect(job.body).toMatchObject({ status: 'queued', credits_charged: 0 });
    expect(await credits(a.key)).toBe(before);
  });

  it('takes signed webhooks only, and a replayed event adds nothing', async () => {
    const a = await withCard();
    await call(a.key, 'POST', '/subscription', { price_id: STANDARD });
    const balance = await credits(a.key);
    const [paid] = (await stripe.events.list({ type: 'invoice.paid', limit: 1 })).data;
    expect(paid).toBeDefined();
    const body = JSON.stringify(paid);
    const post = (payload: string, signature: string) =>
      t.app.inject({
        method: 'POST',
        url: WEBHOOK_PATH,
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
    for (let i = 0; i < 3; i++) {
      expect((await post(body, signWebhook(body, LOCAL_KEYS.webhookSecret))).statusCode).toBe(200);
    }
    expect(await credits(a.key)).toBe(balance);
    const forged = await post(
      `${body.slice(0, -1)},"forged":true}`,
      signWebhook(body, LOCAL_KEYS.webhookSecret),
    );
    expect(forged.statusCode).toBe(400);
    expect((await post(body, signWebhook(body, 'whsec_wrong'))).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: WEBHOOK_PATH, payload: body })).statusCode).toBe(400);
  });

  it('grants a renewal once, from its invoice.paid webhook, however often it is delivered', async () => {
    const a = await withCard();
    // The seed's checkout fields have no checkout page to return to here: refused, naming what to send.
    const withUrls = await call(a.key, 'POST', '/subscription', {
      price_id: STANDARD,
      success_url: 'https://example.com/ok',
      cancel_url: 'https://example.com/no',
    });
    expect(withUrls.status).toBe(400);
    expect(withUrls.body.error.issues.map((i: { path: string }) => i.path)).toEqual([
      'success_url',
      'cancel_url',
    ]);
    expect(withUrls.body.error.message).toMatch(/no checkout page.*send price_id alone/);
    expect((await call(a.key, 'GET', '/subscription')).body).toEqual({ subscription: null });
    const started = await call(a.key, 'POST', '/subscription', { price_id: STANDARD });
    const before = await credits(a.key);
    const [first] = (await stripe.invoices.list({ subscription: started.body.subscription.id })).data;
    // The next month's invoice, as the provider reports a renewal: a new invoice and a new event.
    const renewal = {
      ...first!,
      id: 'in_renewal_test',
      billing_reason: 'subscription_cycle',
      status: 'paid',
    };
    const event = {
      id: 'evt_renewal_test',
      object: 'event',
      type: 'invoice.paid',
      created: Math.floor(Date.now() / 1000),
      data: { object: renewal },
    };
    const body = JSON.stringify(event);
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: WEBHOOK_PATH,
        payload: body,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signWebhook(body, LOCAL_KEYS.webhookSecret),
        },
      });
      expect(res.statusCode).toBe(200);
    }
    expect(await credits(a.key)).toBe(before + 30_000);
    const grants = await t.database.db
      .selectFrom('credit_ledger')
      .select('reference')
      .where('profile_id', '=', a.profileId)
      .where('kind', '=', 'subscription_grant')
      .execute();
    expect(grants.map((g) => g.reference)).toEqual([first!.id, 'in_renewal_test']);
  });

  it('50 concurrent purchases and checks leave the balance equal to the sum of the ledger', async () => {
    const a = await withCard();
    const work = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 })
        : call(a.key, 'GET', `/verify?p=202333${String(1000 + i).padStart(4, '0')}`),
    );
    const results = await Promise.all(work);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const totals = await ledgerTotals(t.database.db, a.profileId);
    expect(totals.balance).toBe(totals.sum);
    expect(totals.balance).toBe(700 + 25 * 2857 - 25);
    const purchases = await t.database.db
      .selectFrom('purchases')
      .select('id')
      .where('profile_id', '=', a.profileId)
      .execute();
    expect(purchases).toHaveLength(26);
  }, 60_000);
});
