import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIdentity, type TestIdentity } from '../../test/id-tokens.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { applyLedgerEntry, ledgerTotals } from '../account/ledger.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { LOCAL_KEYS } from '../config/payment-settings.js';
import { StripePaymentProvider } from '../payment-provider/stripe-payment-provider.js';
import { WEBHOOK_PATH } from '../payments/webhook-route.js';
import { signWebhook } from '../webhooks/webhook-signature.js';

const PAYG = '79541679412213';
const address = { customer_name: 'Rae Fund', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe('refunds: by an admin, or made in the provider and reported by its webhook', () => {
  let t: TestApp;
  let id: TestIdentity;
  let admin: Record<string, string>;
  let accounts = 0;
  /** The operator's view of the provider (its dashboard), through the official SDK. */
  let stripe: Stripe;

  beforeAll(async () => {
    id = await createTestIdentity();
    t = await createTestApp({}, { tokenVerifier: id.verifier });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const listening = t.app.server.address();
    const url = `http://localhost:${typeof listening === 'object' && listening ? listening.port : 0}`;
    stripe = await new StripePaymentProvider({
      kind: 'local',
      secretKey: LOCAL_KEYS.secretKey,
      publishableKey: LOCAL_KEYS.publishableKey,
      webhookSecret: null,
      endpoint: { url: () => url, prefix: '/_stripe' },
    }).stripe();
    admin = {
      authorization: `Bearer ${await id.token({ sub: 'refund-admin', email: 'refunds@example.com', groups: ['Admin'] })}`,
    };
    expect((await t.app.inject({ method: 'GET', url: '/user', headers: admin })).statusCode).toBe(200);
  }, 60_000);
  afterAll(() => t?.close());

  const call = async (
    headers: Record<string, string>,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
  ) => {
    const res = await t.app.inject({ method, url, payload, headers });
    return { status: res.statusCode, body: res.json() };
  };

  /** An account with a card, its $1 verification (700 credits) and a $5 purchase (2,857 credits). */
  async function customer() {
    accounts++;
    const profile = await ensureProfile(t.database.db, {
      sub: `refund-${accounts}`,
      email: `refund${accounts}@example.com`,
      name: '',
      role: 'User',
    });
    const headers = { 'x-api-key': (await rotateApiKey(t.database.db, profile.id)).api_key };
    await call(headers, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' });
    const bought = await call(headers, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
    expect(bought.status).toBe(200);
    return {
      profileId: profile.id,
      email: profile.email,
      headers,
      purchaseId: bought.body.purchase_id as string,
    };
  }

  const credits = async (c: { headers: Record<string, string> }) =>
    (await call(c.headers, 'GET', '/credits')).body.credits as number;
  const refundRows = (purchaseId: string) =>
    t.database.db.selectFrom('refunds').selectAll().where('purchase_id', '=', purchaseId).execute();
  const refund = (c: { profileId: string }, purchaseId: string, payload: object, headers = admin) =>
    call(headers, 'POST', `/admin/users/${c.profileId}/purchases/${purchaseId}/refund`, payload);

  async function until(check: () => Promise<boolean>) {
    const deadline = Date.now() + 20_000;
    while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await check()).toBe(true);
  }

  it('refunds part, then the rest: credits taken back pro rata, never below zero, the shortfall recorded', async () => {
    const c = await customer();
    expect(await credits(c)).toBe(700 + 2857);
    const part = await refund(c, c.purchaseId, { amount: 2, reason: 'Charged twice' });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body).toMatchObject({
      refund_id: expect.stringMatching(/^re_/),
      amount: 2,
      refunded_amount: 2,
      credits_taken: 1143, // 2857 × 2/5
      credits_shortfall: 0,
      credits: 700 + 2857 - 1143,
    });
    // The customer spends most of what is left before the rest is refunded.
    await applyLedgerEntry(t.database.db, { profileId: c.profileId, delta: -2000, kind: 'check' });
    const rest = await refund(c, c.purchaseId, { reason: 'Customer asked' });
    expect(rest.body).toMatchObject({
      amount: 3,
      refunded_amount: 5,
      credits_taken: 414,
      credits_shortfall: 1300, // 2857 - 1143 due, 414 left to take
      credits: 0,
    });
    expect(rest.body.message).toMatch(/1300 more were already spent/);
    expect(await ledgerTotals(t.database.db, c.profileId)).toMatchObject({ balance: 0, sum: 0 });

    // Nothing left to refund; more than is left is refused before the provider is asked.
    expect(await refund(c, c.purchaseId, { reason: 'again' })).toMatchObject({
      status: 409,
      body: { error: { message: 'This purchase was already refunded in full.' } },
    });
    const other = await customer();
    const tooMuch = await refund(other, other.purchaseId, { amount: 6, reason: 'typo' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toMatch(/\$6\.00 is more than the \$5\.00 left/);
    expect((await refund(other, other.purchaseId, { amount: 1 })).status).toBe(400); // no reason
    expect(
      (await refund(other, '00000000-0000-4000-8000-000000000000', { reason: 'x' })).body.error.code,
    ).toBe('not_found');
    // A customer's purchase is refunded on that customer's account only.
    expect((await refund(other, c.purchaseId, { reason: 'x' })).status).toBe(404);

    // History, ledger, audit log and mail say what happened.
    const history = (await call(c.headers, 'GET', '/purchases')).body.purchases;
    expect(history[0]).toMatchObject({ purchase_id: c.purchaseId, purchase_amount: 5, refunded_amount: 5 });
    const ledger = await t.database.db
      .selectFrom('credit_ledger')
      .select(['delta', 'reference'])
      .where('profile_id', '=', c.profileId)
      .where('kind', '=', 'refund')
      .orderBy('id')
      .execute();
    expect(ledger.map((e) => e.delta)).toEqual([-1143, -414]);
    expect(ledger[0]?.reference).toBe(part.body.refund_id);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject_id', '=', c.profileId)
      .where('action', '=', 'purchase.refund')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ actor_email: 'refunds@example.com' });
    expect(audit[0]?.detail).toMatchObject({ reason: 'Charged twice', amount: 2 });
    const mail = await t.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', c.email)
      .where('kind', '=', 'refund')
      .execute();
    expect(mail).toHaveLength(2);
    expect(mail[1]?.text_body).toMatch(/1,300 more had already been used/);

    // The provider's own charge.refunded events arrive too, and change nothing.
    await until(async () => {
      const seen = await t.database.db
        .selectFrom('payment_webhook_events')
        .select('event_id')
        .where('type', '=', 'charge.refunded')
        .execute();
      return seen.length >= 2;
    });
    expect(await refundRows(c.purchaseId)).toHaveLength(2);
    expect(await credits(c)).toBe(0);
  });

  it('only admins refund: a user and an API key are refused', async () => {
    const c = await customer();
    expect((await refund(c, c.purchaseId, { reason: 'mine' }, c.headers)).status).toBe(403);
    const user = {
      authorization: `Bearer ${await id.token({ sub: `refund-${accounts}`, email: c.email })}`,
    };
    expect((await refund(c, c.purchaseId, { reason: 'mine' }, user)).status).toBe(403);
    expect(await refundRows(c.purchaseId)).toHaveLength(0);
  });

  it("a refund made in the provider's dashboard is recorded once from its webhook, however often delivered", async () => {
    const c = await customer();
    const [purchase] = await t.database.db
      .selectFrom('purchases')
      .select('provider_object_id')
      .where('id', '=', c.purchaseId)
      .execute();
    const made = await stripe.refunds.create({
      payment_intent: String(purchase?.provider_object_id),
      amount: 100,
    });
    expect(made).toMatchObject({ object: 'refund', amount: 100, status: 'succeeded' });
    await until(async () => (await refundRows(c.purchaseId)).length === 1);
    const [row] = await refundRows(c.purchaseId);
    expect(row).toMatchObject({
      provider_refund_id: made.id,
      amount_cents: 100,
      admin_id: null,
      credits_taken: 571, // 2857 × 1/5, rounded
    });
    expect(row?.reason).toMatch(/dashboard/);
    const balance = await credits(c);
    expect(balance).toBe(700 + 2857 - 571);

    // Replayed deliveries of the same event add nothing.
    const [event] = (await stripe.events.list({ type: 'charge.refunded', limit: 1 })).data;
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
    expect(await refundRows(c.purchaseId)).toHaveLength(1);
    expect(await credits(c)).toBe(balance);

    // The provider refuses more than is left, as Stripe does.
    await expect(
      stripe.refunds.create({ payment_intent: String(purchase?.provider_object_id), amount: 500 }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', code: 'amount_too_large' });
  });
});
