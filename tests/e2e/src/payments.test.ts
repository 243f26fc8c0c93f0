import { AuthenticationRequiredError, CardDeclinedError, PlanPausedError, Scrub } from '@scrub/sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, scrub, scrubServer, startServer, tempDir } from './harness.js';

const email = 'payer@example.com';
const password = 'Correct-Horse-9';
const STANDARD = '79541679412211';
const PAYG = '79541679412213';
const address = {
  customer_name: 'Pat Payer',
  line1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postal_code: '07102',
};

/** A signed-up, confirmed account's API key, made with the CLI as a person would. */
async function signUp(server: ServerProcess): Promise<string> {
  const config = tempDir('config-');
  const cli = (args: string[], input?: string) =>
    scrub([...args, '--api-url', server.url], config, input ? { input } : {});
  expect((await cli(['signup', '--email', email, '--password-stdin'], `${password}\n`)).code).toBe(0);
  const mail = await scrubServer(['mail', '--to', email, '--last'], server.dataDir);
  const code = /verification code: (\d{6})$/m.exec(mail.stdout)?.[1] ?? '';
  expect((await cli(['confirm', '--email', email, '--code', code])).code).toBe(0);
  expect((await cli(['login', '--email', email, '--password-stdin'], `${password}\n`)).code).toBe(0);
  const rotate = await cli(['key', 'rotate', '--yes']);
  expect(rotate.code, rotate.stderr).toBe(0);
  return rotate.stdout.trim();
}

describe('a customer pays, on the embedded setup', () => {
  let server: ServerProcess;
  let api: Scrub;
  /** Stripe.js's part, played by the official SDK with the publishable key /config names. */
  let browser: Stripe;

  beforeAll(async () => {
    server = await startServer();
    api = new Scrub({ baseURL: server.url, apiKey: await signUp(server) });
    const config = await api.config();
    expect(config.payments).toMatchObject({ provider: 'local', publishable_key: 'pk_test_local_scrub' });
    const base = new URL(server.url);
    browser = new Stripe(config.payments!.publishable_key, {
      host: base.hostname,
      port: Number(base.port),
      protocol: 'http',
      httpClient: Stripe.createFetchHttpClient((input: string | URL | Request, init?: RequestInit) => {
        const target = new URL(String(input));
        target.pathname = `/_stripe${target.pathname}`;
        return fetch(target, init);
      }),
    });
  }, 120_000);
  afterAll(() => server?.stop());

  const card = async (number: string) =>
    (
      await browser.paymentMethods.create({
        type: 'card',
        card: { number, exp_month: 12, exp_year: 2040, cvc: '123' },
      })
    ).id;
  const credits = async () => (await api.account.credits()).credits;

  it('declined and 3-D Secure cards give clear errors and add nothing', async () => {
    const declined = await api.payments
      .setup({ ...address, payment_method_id: await card('4000000000000002') })
      .catch((e) => e);
    expect(declined).toBeInstanceOf(CardDeclinedError);
    expect(declined.message).toMatch(/declined/);
    const poor = await api.payments
      .setup({ ...address, payment_method_id: await card('4000000000009995') })
      .catch((e) => e);
    expect(poor).toMatchObject({ declineCode: 'insufficient_funds' });
    const secure = await api.payments
      .setup({ ...address, payment_method_id: await card('4000002500003155') })
      .catch((e) => e);
    expect(secure).toBeInstanceOf(AuthenticationRequiredError);
    expect(secure.clientSecret).toMatch(/_secret_/);
    expect(await credits()).toBe(0);
    expect(await api.cards.hasMethod()).toBe(false);
    expect(await api.purchases.list()).toEqual([]);
  });

  it('adds card 4242 with the $1 intro (700 credits), buys, subscribes, pauses, resumes; the history lists each', async () => {
    expect(await api.cards.setup({ ...address, payment_method_id: await card('4242424242424242') })).toMatch(
      /700 credits/,
    );
    expect(await credits()).toBe(700);

    const flexible = await api.purchases.buy({ reference_code: PAYG, amount: 20 });
    expect(flexible.credits_added).toBe(11_428);
    const subscription = await api.subscriptions.start(STANDARD);
    expect(subscription).toMatchObject({ plan_reference: STANDARD, status: 'active' });
    expect(await credits()).toBe(700 + 11_428 + 30_000);

    expect(await api.subscriptions.pause()).toMatchObject({ status: 'paused' });
    await expect(api.verify('2023334444')).rejects.toBeInstanceOf(PlanPausedError);
    await expect(api.purchases.buy({ reference_code: PAYG, amount: 5 })).rejects.toBeInstanceOf(
      PlanPausedError,
    );
    expect(await api.subscriptions.resume()).toMatchObject({ status: 'active' });
    expect((await api.verify('2023334444')).credits_deducted).toBe(1);

    const history = await api.purchases.list({ per_page: 10 });
    expect(history.map((p) => [p.plan_name, p.purchase_amount, p.credits_added])).toEqual([
      ['STANDARD', 49, 30_000],
      ['FLEXIBLE CREDITS', 20, 11_428],
      ['CARD VERIFICATION', 1, 700],
    ]);
    const receipts = await scrubServer(['mail', '--to', email], server.dataDir);
    expect(receipts.stdout.match(/Your Scrub receipt/g)).toHaveLength(3);
  });
});
