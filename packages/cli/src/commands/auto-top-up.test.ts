import { Scrub } from '@scrub/sdk';
import { accountWithApiKey, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

const address = { customer_name: 'Pat Cli', line1: '1 Main St', city: 'Newark', state: 'NJ' };

describe('scrub account auto-top-up against the real server', () => {
  let server: RunningServer;
  let accounts = 0;

  beforeAll(async () => {
    server = await startLocalServer();
  }, 120_000);
  afterAll(() => server?.close());

  async function account(card: boolean) {
    accounts++;
    const apiKey = await accountWithApiKey(server, {
      sub: `cli-topup-${accounts}`,
      email: `clitopup${accounts}@example.com`,
      credits: 0,
    });
    if (card)
      await new Scrub({ baseURL: server.url, apiKey }).cards.setup({
        ...address,
        payment_method_id: 'pm_card_visa',
      });
    return { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: apiKey };
  }

  it('turns auto top-up on with a pack by name, sets the low-balance e-mail, shows and turns them off', async () => {
    const env = await account(true);
    const off = await scrub(['account', 'auto-top-up'], env);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/Auto top-up\s+off/);
    const on = await scrub(
      [
        'account',
        'auto-top-up',
        '--on',
        '--below',
        '500',
        '--plan',
        'flexible credits',
        '--amount',
        '10',
        '--low-balance',
        '2000',
      ],
      env,
    );
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/Auto top-up\s+on: below 500 credits/);
    expect(on.stdout).toMatch(/Pack\s+FLEXIBLE CREDITS \(\$10, 5,714 credits\)/);
    expect(on.stdout).toMatch(/Low-balance e-mail\s+below 2,000 credits/);
    const json = JSON.parse(
      (await scrub(['--json', 'account', 'auto-top-up', '--off', '--no-low-balance'], env)).stdout,
    );
    expect(json).toMatchObject({
      enabled: false,
      status: 'off',
      threshold: 500,
      low_balance_threshold: null,
    });
  });

  it('says what is wrong: no card (exit 1 with the reason), a bad threshold (exit 2)', async () => {
    const env = await account(false);
    const noCard = await scrub(
      ['account', 'auto-top-up', '--on', '--below', '500', '--plan', '79541679412213', '--amount', '5'],
      env,
    );
    expect(noCard.code).not.toBe(0);
    expect(noCard.stderr).toMatch(/add a card first/);
    const bad = await scrub(['account', 'auto-top-up', '--below', 'lots'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--below must be a number of credits/);
  });
});
