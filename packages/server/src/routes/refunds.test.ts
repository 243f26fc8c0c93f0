import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
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
const STANDARD = '79541679412211';
const PASS = '79541679412215';
const address = { customer_name: 'Rae Fund', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe.each(testDatabases())(
  'refunds on $kind: by an admin, or made in the provider and reported by its webhook',
  ({ open }) => {
    let t: TestApp;
    let id: TestIdentity;
    let admin: Record<string, string>;
    let accounts = 0;
    /** The operator's view of the provider (its dashboard), through the official SDK. */
    let stripe: Stripe;

    beforeAll(async () => {
      id = await createTestIdentity();
      t = await createTestApp({}, { tokenVerifier: id.verifier, database: await open() });
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

    const auditOf = (profileId: string) =>
      t.database.db
        .selectFrom('audit_log')
        .selectAll()
        .where('subject_id', '=', profileId)
        .where('action', '=', 'purchase.refund')
        .orderBy('id')
        .execute();
    const refundMail = (email: string) =>
      t.database.db
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', email)
        .where('kind', '=', 'refund')
        .orderBy('id')
        .execute();
    const refundEventsSeen = async () =>
      (
        await t.database.db
          .selectFrom('payment_webhook_events')
          .select('event_id')
          .where('type', '=', 'charge.refunded')
          .execute()
      ).length;

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

    /** A customer on STANDARD: the monthly plan's first invoice paid, 30,000 credits. */
    async function subscriber() {
      const c = await customer();
      const started = await call(c.headers, 'POST', '/subscription', { price_id: STANDARD });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const [invoice] = await t.database.db
        .selectFrom('purchases')
        .select(['id', 'provider_object_id'])
        .where('profile_id', '=', c.profileId)
        .where('kind', '=', 'subscription')
        .execute();
      expect(invoice?.provider_object_id).toMatch(/^in_/);
      const [paid] = (await stripe.invoicePayments.list({ invoice: String(invoice?.provider_object_id) }))
        .data;
      return { ...c, invoiceId: String(invoice?.id), paymentIntentId: String(paid?.payment.payment_intent) };
    }

    it("refunds a monthly plan's invoice: the payment that paid it, its credits taken back (never below zero), audited", async () => {
      const c = await subscriber();
      expect(await credits(c)).toBe(700 + 2857 + 30_000);
      await applyLedgerEntry(t.database.db, { profileId: c.profileId, delta: -10_000, kind: 'check' });
      const seen = await refundEventsSeen();
      const refunded = await refund(c, c.invoiceId, { reason: 'Did not mean to subscribe' });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      expect(refunded.body).toMatchObject({
        amount: 49,
        refunded_amount: 49,
        credits_taken: 700 + 2857 + 20_000,
        credits_shortfall: 10_000 - 700 - 2857,
        credits: 0,
      });
      // At the provider: the invoice's payment was refunded, in full.
      const atProvider = (await stripe.refunds.list({ payment_intent: c.paymentIntentId })).data;
      expect(atProvider).toMatchObject([{ id: refunded.body.refund_id, amount: 4900, status: 'succeeded' }]);
      const [entry] = await auditOf(c.profileId);
      expect(entry).toMatchObject({ actor_email: 'refunds@example.com' });
      expect(entry?.detail).toMatchObject({ source: 'admin', purchase_id: c.invoiceId, amount: 49 });
      const history = (await call(c.headers, 'GET', '/purchases')).body.purchases;
      expect(history.find((p: { purchase_id: string }) => p.purchase_id === c.invoiceId)).toMatchObject({
        refunded_amount: 49,
      });

      // Its charge.refunded event arrives too, and changes nothing; nothing is left to refund.
      await until(async () => (await refundEventsSeen()) > seen);
      expect(await refundRows(c.invoiceId)).toHaveLength(1);
      expect(await auditOf(c.profileId)).toHaveLength(1);
      expect((await refund(c, c.invoiceId, { reason: 'again' })).status).toBe(409);
    });

    it('a refunded unlimited pass ends at once: back on no plan, audited, and the customer told', async () => {
      const c = await customer();
      const oneDay = await call(c.headers, 'POST', '/payment', { reference_code: PASS, amount: 5 });
      const twoDays = await call(c.headers, 'POST', '/payment', { reference_code: PASS, amount: 10 });
      expect([oneDay.status, twoDays.status]).toEqual([200, 200]);
      expect((await call(c.headers, 'GET', '/credits')).body).toMatchObject({ has_unlimited: true });

      // One of two passes: its day comes off, the other's two days run on.
      const first = await refund(c, oneDay.body.purchase_id, { reason: 'Bought twice' });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.message).toMatch(/Its 1 days came off the unlimited pass/);
      expect((await call(c.headers, 'GET', '/credits')).body).toMatchObject({ has_unlimited: true });

      const last = await refund(c, twoDays.body.purchase_id, { reason: 'Not needed' });
      expect(last.body.message).toMatch(/The unlimited pass it paid for has ended/);
      expect((await call(c.headers, 'GET', '/credits')).body).toMatchObject({
        has_unlimited: false,
        credits_remaining: 700 + 2857,
        user_plan: { plan_reference: null, plan_name: 'Pay as you go' },
      });
      const audit = await auditOf(c.profileId);
      expect(audit.map((e) => e.detail)).toMatchObject([
        { pass_days_taken: 1, pass_ended: false },
        { pass_days_taken: 2, pass_ended: true },
      ]);
      expect((await refundMail(c.email)).at(-1)?.text_body).toMatch(/unlimited pass has ended/);
    });

    it("a refund in the provider's dashboard gets the same treatment: invoice credits taken back, a pass ended, audited as the provider's", async () => {
      const c = await subscriber();
      const made = await stripe.refunds.create({ payment_intent: c.paymentIntentId });
      await until(async () => (await refundRows(c.invoiceId)).length === 1);
      expect(await credits(c)).toBe(700 + 2857);
      const [entry] = await auditOf(c.profileId);
      expect(entry).toMatchObject({ actor_id: null, actor_email: 'payment provider' });
      expect(entry?.detail).toMatchObject({
        source: 'payment_provider',
        refund_id: made.id,
        purchase_id: c.invoiceId,
        credits_taken: 30_000,
      });
      // The Super Admin's audit view lists it.
      const superAdmin = {
        authorization: `Bearer ${await id.token({ sub: 'refund-super', email: 'super@example.com', groups: ['Super Admin'] })}`,
      };
      const listed = await call(superAdmin, 'GET', `/admin/audit?subject_id=${c.profileId}`);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body.entries).toMatchObject([{ actor_id: null, actor_email: 'payment provider' }]);

      const pass = await call(c.headers, 'POST', '/payment', { reference_code: PASS, amount: 5 });
      const [paid] = await t.database.db
        .selectFrom('purchases')
        .select('provider_object_id')
        .where('id', '=', pass.body.purchase_id)
        .execute();
      await stripe.refunds.create({ payment_intent: String(paid?.provider_object_id) });
      await until(async () => (await refundRows(pass.body.purchase_id)).length === 1);
      expect((await call(c.headers, 'GET', '/credits')).body).toMatchObject({ has_unlimited: false });
      expect((await auditOf(c.profileId)).at(-1)?.detail).toMatchObject({
        source: 'payment_provider',
        pass_ended: true,
      });

      // Redelivered: nothing more.
      const [event] = (await stripe.events.list({ type: 'charge.refunded', limit: 1 })).data;
      const body = JSON.stringify(event);
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
      expect(await auditOf(c.profileId)).toHaveLength(2);
    });
  },
);
