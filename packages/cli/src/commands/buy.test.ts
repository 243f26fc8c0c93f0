import { Scrub } from '@scrub/sdk';
import { accountWithApiKey, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

const PAYG = '79541679412213';
const address = { customer_name: 'Pat Cli', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe('scrub buy, card, subscription and purchases against the real server', () => {
  let server: RunningServer;
  let accounts = 0;

  beforeAll(async () => {
    server = await startLocalServer();
  }, 120_000);
  afterAll(() => server?.close());

  /** An account with an API key, and with a card saved through the API as the dashboard saves it. */
  async function account(card: string | null = 'pm_card_visa') {
    accounts++;
    const apiKey = await accountWithApiKey(server, {
      sub: `cli-pay-${accounts}`,
      email: `clipay${accounts}@example.com`,
      credits: 0,
    });
    if (card)
      await new Scrub({ baseURL: server.url, apiKey }).payments
        .setup({ ...address, payment_method_id: card })
        .catch(() => undefined);
    return { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: apiKey };
  }

  it('buys a plan by name or reference on the default card, and lists the purchases', async () => {
    const env = await account();
    const bought = await scrub(['buy', 'flexible credits', '--amount', '10', '--yes'], env);
    expect(bought.code, bought.stderr).toBe(0);
    expect(bought.stdout).toMatch(/Credits added\s+5,714/);
    const json = await scrub(['--json', 'buy', '79541679412216', '--amount', '83', '--yes'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ credits_added: 50_000, amount: 83 });
    const credits = JSON.parse((await scrub(['--json', 'credits'], env)).stdout);
    expect(credits.credits).toBe(700 + 5714 + 50_000);

    const year = String(new Date().getUTCFullYear());
    const history = JSON.parse((await scrub(['--json', 'purchases', '--year', year], env)).stdout);
    expect(history.map((p: { plan_name: string }) => p.plan_name)).toEqual([
      'BULK',
      'FLEXIBLE CREDITS',
      'CARD VERIFICATION',
    ]);
    const table = await scrub(['purchases', '--limit', '1'], env);
    expect(table.stdout).toContain('BULK');
    expect(table.stdout).not.toContain('FLEXIBLE CREDITS');
    expect((await scrub(['purchases', '--month', '3'], env)).code).toBe(2);
  });

  it('asks first: without a terminal and without --yes nothing is bought (exit 2); at a terminal the answer decides', async () => {
    const env = await account();
    const refused = await scrub(['buy', PAYG, '--amount', '5'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const declined = await scrub(['buy', PAYG, '--amount', '5'], env, { answers: [false] });
    expect(declined.code).toBe(1);
    expect(declined.prompts?.[0]).toMatch(/Buy FLEXIBLE CREDITS for \$5 on visa ending 4242\?/);
    expect(JSON.parse((await scrub(['--json', 'credits'], env)).stdout).credits).toBe(700);
    expect((await scrub(['buy', 'nonsense', '--yes'], env)).code).toBe(2);
  });

  it('exits 4 with the reason when the card is refused or missing, and nothing is added', async () => {
    const noCard = await account(null);
    const missing = await scrub(['buy', PAYG, '--amount', '5', '--yes'], noCard);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/scrub card add/);
    // 0341: the card saves, every charge is declined.
    const declining = await account('pm_card_chargeCustomerFail');
    const declined = await scrub(['buy', PAYG, '--amount', '5', '--yes'], declining);
    expect(declined.code).toBe(4);
    expect(declined.stderr).toMatch(/Your card was declined\./);
    expect(declined.stderr).not.toMatch(/generic_decline/);
    expect(JSON.parse((await scrub(['--json', 'credits'], declining)).stdout).credits).toBe(0);
    const invalid = await scrub(['buy', PAYG, '--amount', '7', '--yes'], declining);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/\$5, \$10, \$20, \$50, \$100/);
  });

  it('card list, card default, card add prints the card page (never takes a number), card remove', async () => {
    const env = await account();
    const cards = JSON.parse((await scrub(['--json', 'card', 'list'], env)).stdout);
    expect(cards).toMatchObject([{ brand: 'visa', last4: '4242', is_default: true }]);
    expect((await scrub(['card', 'list'], env)).stdout).toMatch(/visa.*4242.*yes/);
    const changed = await scrub(['card', 'default', cards[0].id], env);
    expect(changed.stdout).toMatch(/Card Updated Successfully/);
    expect((await scrub(['card', 'default', 'pm_unknown'], env)).code).toBe(1);
    const add = await scrub(['card', 'add'], env);
    expect(add.code).toBe(0);
    // A single-use link: the browser that opens it adds a card to this account without signing in.
    const url = new URL(add.stdout.trim());
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/card`);
    expect(add.stderr).toMatch(/works once, until/);
    const link = await new Scrub({ baseURL: server.url }).cards.getLink(url.searchParams.get('grant') ?? '');
    expect(link).toMatchObject({ purpose: 'add_card', client_secret: null });
    expect((await scrub(['card', 'add', '4242424242424242'], env)).code).toBe(2);
    const removed = await scrub(['card', 'remove', cards[0].id], env);
    expect(removed.stdout, removed.stderr).toMatch(/Card Removed Successfully: visa ending 4242/);
    expect(JSON.parse((await scrub(['--json', 'card', 'list'], env)).stdout)).toEqual([]);
  });

  /** The built-in provider's newest payment intent waiting for 3-D Secure, as its operator API lists them. */
  async function waitingIntent(): Promise<string> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${server.url}/_stripe/v1/payment_intents?limit=5`, {
        headers: { authorization: 'Bearer sk_test_local_scrub' },
      });
      const { data } = (await res.json()) as { data: { id: string; status: string }[] };
      const waiting = data.find((intent) => intent.status === 'requires_action');
      if (waiting) return waiting.id;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no payment intent asked for 3-D Secure');
  }

  /** The customer answers the bank's check on the provider's test page. */
  const authenticate = (intent: string, outcome: 'complete' | 'fail') =>
    fetch(`${server.url}/_stripe/authenticate/${intent}?outcome=${outcome}`, { method: 'POST' });

  /**
   * Saves one of Stripe's test cards on the account's customer at the built-in provider, as a
   * finished card form would have: `card default` picks only among saved cards.
   */
  async function saveTestCard(email: string, testPaymentMethod: string): Promise<string> {
    const headers = { authorization: 'Bearer sk_test_local_scrub' };
    const found = await fetch(`${server.url}/_stripe/v1/customers?email=${encodeURIComponent(email)}`, {
      headers,
    });
    const customer = ((await found.json()) as { data: { id: string }[] }).data[0]?.id;
    const attached = await fetch(`${server.url}/_stripe/v1/payment_methods/${testPaymentMethod}/attach`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: `customer=${customer}`,
    });
    return ((await attached.json()) as { id: string }).id;
  }

  it('buy with a card that wants 3-D Secure prints the confirmation page, waits, then reports the credits', async () => {
    const env = await account();
    await new Scrub({ baseURL: server.url, apiKey: env.SCRUB_API_KEY }).cards.setDefaultMethod(
      await saveTestCard(`clipay${accounts}@example.com`, 'pm_card_authenticationRequired'),
    );
    const running = scrub(['buy', PAYG, '--amount', '5', '--yes'], env);
    await authenticate(await waitingIntent(), 'complete');
    const bought = await running;
    expect(bought.code, bought.stderr).toBe(0);
    expect(bought.stderr).toMatch(/confirm this payment \(3-D Secure\)/);
    expect(bought.stderr).toContain(`${server.url}/authenticate?grant=`);
    expect(bought.stdout).toMatch(/Credits added\s+2,857/);
    expect(JSON.parse((await scrub(['--json', 'credits'], env)).stdout).credits).toBe(700 + 2857);

    const refused = scrub(['buy', PAYG, '--amount', '5', '--yes'], env);
    await authenticate(await waitingIntent(), 'fail');
    const failed = await refused;
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/not completed.*Nothing was charged/);
    expect(JSON.parse((await scrub(['--json', 'credits'], env)).stdout).credits).toBe(700 + 2857);
  }, 60_000);

  it('subscription start with a card that wants 3-D Secure prints the confirmation page, waits, then shows the plan active', async () => {
    const env = await account();
    await new Scrub({ baseURL: server.url, apiKey: env.SCRUB_API_KEY }).cards.setDefaultMethod(
      await saveTestCard(`clipay${accounts}@example.com`, 'pm_card_authenticationRequired'),
    );
    const running = scrub(['subscription', 'start', 'standard', '--yes'], env);
    await authenticate(await waitingIntent(), 'complete');
    const started = await running;
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toMatch(/confirm this payment \(3-D Secure\)/);
    expect(started.stderr).toContain(`${server.url}/authenticate?grant=`);
    expect(started.stdout).toMatch(/Status\s+active/);
    expect(JSON.parse((await scrub(['--json', 'credits'], env)).stdout).credits).toBe(700 + 30_000);
  }, 60_000);

  it('subscription start, pause (checks then refused: plan_paused), resume, switch, cancel', async () => {
    const env = await account();
    expect((await scrub(['subscription', 'show'], env)).stdout).toMatch(/No subscription/);
    const started = await scrub(['--json', 'subscription', 'start', 'standard', '--yes'], env);
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout).subscription).toMatchObject({
      plan_reference: '79541679412211',
      status: 'active',
    });
    expect((await scrub(['subscription', 'pause'], env)).stdout).toMatch(/Status\s+paused/);
    const check = await scrub(['check', '2023334444'], env);
    expect(check.code).not.toBe(0);
    expect(check.stderr).toMatch(/paused/);
    expect((await scrub(['subscription', 'resume'], env)).stdout).toMatch(/Status\s+active/);
    expect((await scrub(['check', '2023334444'], env)).code).toBe(0);
    expect((await scrub(['subscription', 'switch', 'POWER', '--yes'], env)).stdout).toContain(
      '79541679412212',
    );
    expect((await scrub(['subscription', 'cancel'], env)).code).toBe(2);
    expect((await scrub(['subscription', 'cancel', '--yes'], env)).stdout).toMatch(/Ends\s+\d{4}-/);
  });

  it('account pause and activate work without a subscription; the paused message names a command that works', async () => {
    const env = await account(null);
    const paused = await scrub(['account', 'pause'], env);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout).toMatch(/paused/);
    const check = await scrub(['check', '2023334444'], env);
    expect(check.code).not.toBe(0);
    expect(check.stderr).toMatch(/scrub account activate/);
    // `scrub subscription resume` cannot help here: there is no subscription.
    expect((await scrub(['subscription', 'resume'], env)).code).not.toBe(0);
    const activated = await scrub(['--json', 'account', 'activate'], env);
    expect(activated.code, activated.stderr).toBe(0);
    expect(JSON.parse(activated.stdout)).toMatchObject({
      status: 'active',
      message: expect.stringMatching(/active/),
    });
    // Active again: the check is refused for credits (this account has none), no longer for the pause.
    expect((await scrub(['check', '2023334444'], env)).stderr).not.toMatch(/paused/);
  });
});
