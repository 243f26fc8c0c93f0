import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { saveTestCard } from '../../test/saved-cards.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';
import { LOCAL_KEYS } from '../config/payment-settings.js';
import { StripePaymentProvider } from '../payment-provider/stripe-payment-provider.js';

const PAYG = '79541679412213';
const address = { customer_name: 'Lin Kowner', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe.each(testDatabases())(
  'payment links on $kind: a card added, and a payment confirmed, without signing in',
  ({ open }) => {
    let t: TestApp;
    let accounts = 0;
    /** Plays Stripe.js in the browser that opened the link: the publishable key only. */
    let browser: Stripe;

    beforeAll(async () => {
      t = await createTestApp({}, { database: await open() });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const listening = t.app.server.address();
      const url = `http://localhost:${typeof listening === 'object' && listening ? listening.port : 0}`;
      browser = await new StripePaymentProvider({
        kind: 'local',
        secretKey: LOCAL_KEYS.publishableKey,
        publishableKey: LOCAL_KEYS.publishableKey,
        webhookSecret: null,
        endpoint: { url: () => url, prefix: '/_stripe' },
      }).stripe();
    }, 60_000);
    afterAll(() => t?.close());

    async function account() {
      accounts++;
      const profile = await ensureProfile(t.database.db, {
        sub: `link-${accounts}`,
        email: `link${accounts}@example.com`,
        name: '',
        role: 'User',
      });
      const { api_key } = await rotateApiKey(t.database.db, profile.id);
      return { profileId: profile.id, key: api_key };
    }

    const call = async (
      key: string | null,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
    ) => {
      const res = await t.app.inject({ method, url, payload, headers: key ? { 'x-api-key': key } : {} });
      return { status: res.statusCode, body: res.json() };
    };
    const grantOf = (url: string) => new URL(url).searchParams.get('grant') ?? '';
    const card = async (number: string) =>
      (
        await browser.paymentMethods.create({
          type: 'card',
          card: { number, exp_month: 12, exp_year: 2040, cvc: '123' },
        })
      ).id;

    it('a card link adds a card to its account once; used, forged or expired links are refused and say why', async () => {
      const a = await account();
      const link = await call(a.key, 'POST', '/payment/card-link');
      expect(link.status).toBe(200);
      expect(link.body.url).toMatch(/\/card\?grant=[\w-]{43}$/);
      const minutes = (Date.parse(link.body.expires_at) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15);
      const grant = grantOf(link.body.url);

      // No credentials: the link is one, and it shows nothing of the account.
      const view = await call(null, 'GET', `/payment/links/${grant}`);
      expect(view).toMatchObject({ status: 200, body: { purpose: 'add_card', client_secret: null } });
      expect(JSON.stringify(view.body)).not.toContain(a.profileId);
      expect(JSON.stringify(view.body)).not.toContain('@example.com');

      // A declined card leaves the link open for another try.
      const declined = await call(null, 'POST', `/payment/links/${grant}/setup`, {
        ...address,
        payment_method_id: await card('4000000000000002'),
      });
      expect(declined).toMatchObject({ status: 402, body: { error: { code: 'card_declined' } } });
      const saved = await call(null, 'POST', `/payment/links/${grant}/setup`, {
        ...address,
        payment_method_id: await card('4242424242424242'),
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.message).toMatch(/Card Added Successfully/);
      const cards = (await call(a.key, 'GET', '/payment-methods')).body.payment_methods;
      expect(cards).toMatchObject([{ last4: '4242', is_default: true }]);
      expect((await call(a.key, 'GET', '/credits')).body.credits).toBe(700);

      // Used once: every use after is refused, and nothing changes.
      const reused = await call(null, 'POST', `/payment/links/${grant}/setup`, {
        ...address,
        payment_method_id: await card('5555555555554444'),
      });
      expect(reused).toMatchObject({ status: 410, body: { error: { code: 'payment_link_expired' } } });
      expect(reused.body.message).toMatch(/already used/);
      expect((await call(a.key, 'GET', '/payment-methods')).body.payment_methods).toHaveLength(1);
      expect((await call(null, 'GET', `/payment/links/${grant}`)).status).toBe(410);

      const forged = await call(null, 'POST', `/payment/links/${grant.slice(0, -2)}xx/setup`, {
        ...address,
        payment_method_id: 'pm_card_visa',
      });
      expect(forged).toMatchObject({ status: 404, body: { error: { code: 'payment_link_invalid' } } });

      const late = grantOf((await call(a.key, 'POST', '/payment/card-link')).body.url);
      await t.database.db
        .updateTable('payment_links')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('used_at', 'is', null)
        .execute();
      const expired = await call(null, 'POST', `/payment/links/${late}/setup`, {
        ...address,
        payment_method_id: 'pm_card_visa',
      });
      expect(expired).toMatchObject({ status: 410, body: { error: { code: 'payment_link_expired' } } });
      expect(expired.body.message).toMatch(/expired/);
    });

    it('two saves at once on one card link save one card: the other is refused and says why', async () => {
      const a = await account();
      const grant = grantOf((await call(a.key, 'POST', '/payment/card-link')).body.url);
      const [visa, mastercard] = [await card('4242424242424242'), await card('5555555555554444')];
      const saves = await Promise.all(
        [visa, mastercard].map((payment_method_id) =>
          call(null, 'POST', `/payment/links/${grant}/setup`, { ...address, payment_method_id }),
        ),
      );
      const statuses = saves.map((save) => save.status).sort();
      expect(statuses[0], JSON.stringify(saves)).toBe(200);
      expect([409, 410]).toContain(statuses[1]);
      const refused = saves.find((save) => save.status !== 200);
      expect(refused?.body.message).toMatch(/right now|already used/);
      expect((await call(a.key, 'GET', '/payment-methods')).body.payment_methods).toHaveLength(1);
      expect((await call(a.key, 'GET', '/credits')).body.credits).toBe(700);
      // The link is spent: a third save is refused.
      const after = await call(null, 'POST', `/payment/links/${grant}/setup`, {
        ...address,
        payment_method_id: await card('4242424242424242'),
      });
      expect(after.status).toBe(410);
    });

    it('a card link opens nothing else: not the account, not a purchase', async () => {
      const a = await account();
      const grant = grantOf((await call(a.key, 'POST', '/payment/card-link')).body.url);
      for (const [method, url] of [
        ['GET', '/user'],
        ['GET', '/payment-methods'],
        ['POST', '/payment'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${grant}`, 'x-api-key': grant },
          ...(method === 'POST' ? { payload: { reference_code: PAYG, amount: 5 } } : {}),
        });
        expect(res.statusCode, url).toBe(401);
      }
    });

    it('a purchase needing 3-D Secure names a confirmation page and its payment; confirm credits it once', async () => {
      const a = await account();
      await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' });
      await call(a.key, 'PUT', '/payment-method', {
        payment_method_id: await saveTestCard(
          t.app,
          t.database.db,
          a.profileId,
          'pm_card_authenticationRequired',
        ),
      });
      const buy = await call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
      expect(buy).toMatchObject({
        status: 402,
        body: {
          error: { code: 'authentication_required' },
          payment_intent_id: expect.stringMatching(/^pi_/),
          next_action_url: expect.stringMatching(/\/authenticate\?grant=/),
        },
      });
      const intent = buy.body.payment_intent_id as string;
      const page = await call(null, 'GET', `/payment/links/${grantOf(buy.body.next_action_url)}`);
      expect(page.body).toMatchObject({ purpose: 'authenticate', client_secret: buy.body.client_secret });

      const waiting = await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent });
      expect(waiting.body).toMatchObject({ status: 'requires_action', purchase: null });
      // Another account cannot ask about (or be credited for) this payment.
      const b = await account();
      expect((await call(b.key, 'POST', '/payment/confirm', { payment_intent_id: intent })).status).toBe(404);

      // The customer completes the bank's check (the provider's test page).
      await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${intent}?outcome=complete` });
      const done = await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent });
      expect(done.body).toMatchObject({
        status: 'succeeded',
        purchase: { amount: 5, credits_added: 2857, plan_reference: PAYG },
      });
      const again = await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent });
      expect(again.body.purchase.purchase_id).toBe(done.body.purchase.purchase_id);
      expect((await call(a.key, 'GET', '/credits')).body.credits).toBe(700 + 2857);
      // The page has nothing left to do.
      expect((await call(null, 'GET', `/payment/links/${grantOf(buy.body.next_action_url)}`)).status).toBe(
        410,
      );
    });

    it('a subscription needing 3-D Secure names a confirmation page too; confirm grants its first month once', async () => {
      const a = await account();
      await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' });
      await call(a.key, 'PUT', '/payment-method', {
        payment_method_id: await saveTestCard(
          t.app,
          t.database.db,
          a.profileId,
          'pm_card_authenticationRequired',
        ),
      });
      const started = await call(a.key, 'POST', '/subscription', { price_id: '79541679412211' });
      expect(started).toMatchObject({
        status: 402,
        body: {
          error: { code: 'authentication_required' },
          payment_intent_id: expect.stringMatching(/^pi_/),
          next_action_url: expect.stringMatching(/\/authenticate\?grant=/),
        },
      });
      const intent = started.body.payment_intent_id as string;
      const page = await call(null, 'GET', `/payment/links/${grantOf(started.body.next_action_url)}`);
      expect(page.body).toMatchObject({ purpose: 'authenticate', client_secret: started.body.client_secret });
      expect(
        (await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent })).body,
      ).toMatchObject({
        status: 'requires_action',
      });

      await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${intent}?outcome=complete` });
      const done = await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent });
      expect(done.body).toMatchObject({
        status: 'succeeded',
        purchase: { amount: 49, credits_added: 30_000, plan_reference: '79541679412211' },
      });
      const again = await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent });
      expect(again.body.purchase.purchase_id).toBe(done.body.purchase.purchase_id);
      expect((await call(a.key, 'GET', '/credits')).body.credits).toBe(700 + 30_000);
      expect((await call(a.key, 'GET', '/subscription')).body.subscription).toMatchObject({
        status: 'active',
      });
    });

    it('a failed bank check ends as failed, nothing charged', async () => {
      const a = await account();
      await call(a.key, 'POST', '/payment/setup', { ...address, payment_method_id: 'pm_card_visa' });
      await call(a.key, 'PUT', '/payment-method', {
        payment_method_id: await saveTestCard(
          t.app,
          t.database.db,
          a.profileId,
          'pm_card_authenticationRequired',
        ),
      });
      const buy = await call(a.key, 'POST', '/payment', { reference_code: PAYG, amount: 5 });
      const intent = buy.body.payment_intent_id as string;
      await t.app.inject({ method: 'POST', url: `/_stripe/authenticate/${intent}?outcome=fail` });
      const failed = await call(a.key, 'POST', '/payment/confirm', { payment_intent_id: intent });
      expect(failed.body).toMatchObject({ status: 'failed', purchase: null });
      expect(failed.body.message).toMatch(/Nothing was charged/);
      expect((await call(a.key, 'GET', '/credits')).body.credits).toBe(700);
    });
  },
);
