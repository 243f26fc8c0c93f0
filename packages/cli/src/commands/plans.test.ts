import { createServer } from 'node:net';
import type { Plan } from '@scrub/sdk';
import { startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';
import { formatPrice } from '../actions/plans.js';

/** A port nothing listens on: bound once by us, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('scrub plans against the real server', () => {
  let server: RunningServer;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startLocalServer();
    env = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url };
  });
  afterAll(() => server?.close());

  it('prints the catalogue as a table', async () => {
    const result = await scrub(['plans'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const name of ['STANDARD', 'POWER', 'ELITE', 'FLEXIBLE CREDITS'])
      expect(result.stdout).toContain(name);
    expect(result.stdout).toContain('$49/month');
    expect(result.stdout).toContain('$5 – $100');
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('prints the plans as JSON with --json', async () => {
    const result = await scrub(['--json', 'plans'], env);
    expect(result.code).toBe(0);
    const plans = JSON.parse(result.stdout) as Plan[];
    const elite = plans.find((plan) => plan.plan_reference === '79541679412214');
    expect(elite).toMatchObject({ plan_name: 'ELITE', unlimited: true, interval: 'month' });
  });

  it('filters by --type', async () => {
    const plans = JSON.parse((await scrub(['--json', 'plans', '--type', 'postpaid'], env)).stdout) as Plan[];
    expect(plans.map((plan) => plan.plan_name)).toEqual(['STANDARD', 'POWER', 'ELITE']);
  });

  it('finds the server through --api-url or the profile too', async () => {
    const configOnly = { SCRUB_CONFIG_DIR: tempConfigDir() };
    expect((await scrub(['--api-url', server.url, 'plans'], configOnly)).code).toBe(0);
    await scrub(['config', 'set', 'api_url', server.url], configOnly);
    expect((await scrub(['plans'], configOnly)).stdout).toContain('ELITE');
  });

  it('exits 1 and says how to start a server when the API cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await scrub(['plans'], { ...env, SCRUB_API_URL: url });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^error: Could not reach ${url}: .*ECONNREFUSED`));
    expect(result.stderr).toContain('pnpm start');
    expect(result.stderr).toContain('--api-url');
  });
});

describe('formatPrice', () => {
  const plan = (fields: Partial<Plan>): Plan => ({
    plan_reference: '79541679412299',
    plan_name: 'TEST',
    plan_subtitle: '',
    plan_type: 'prepaid',
    plan_amount: 1,
    percent_off: 0,
    plan_credits: 500,
    plan_credits_text: '',
    bonus_credits: 0,
    currency: 'usd',
    interval: null,
    unlimited: false,
    variable: false,
    amount_options: [{ amount: 1, credits: 500, percent_off: 0, unlimited_days: null }],
    ...fields,
  });

  it('shows a fixed price, a monthly price and a range', () => {
    expect(formatPrice(plan({ plan_amount: 1 }))).toBe('$1');
    expect(formatPrice(plan({ plan_amount: 1400.5 }))).toBe('$1,400.50');
    expect(formatPrice(plan({ plan_amount: 49, interval: 'month' }))).toBe('$49/month');
    const amounts = [5, 10, 100].map((amount) => ({
      amount,
      credits: 1,
      percent_off: 0,
      unlimited_days: null,
    }));
    expect(formatPrice(plan({ variable: true, amount_options: amounts }))).toBe('$5 – $100');
  });
});
