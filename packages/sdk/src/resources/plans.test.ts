import type { Plan } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const plan: Plan = {
  plan_reference: '79541679412200',
  plan_name: 'Starter',
  plan_subtitle: 'Pay as you go',
  plan_type: 'prepaid',
  plan_amount: 10,
  percent_off: 0,
  plan_credits: 1000,
  plan_credits_text: '1,000 credits',
  bonus_credits: 0,
  currency: 'usd',
  interval: null,
  unlimited: false,
  variable: false,
  amount_options: [{ amount: 10, credits: 1000, percent_off: 0, unlimited_days: null }],
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

it('lists the plan catalogue as an array', async () => {
  const scope = nock(BASE)
    .get('/plans')
    .reply(200, { plans: [plan] });

  await expect(new Scrub({ baseURL: BASE }).plans.list()).resolves.toEqual([plan]);
  scope.done();
});
