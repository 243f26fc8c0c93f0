import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_test', maxRetries: 0 });
const subscription = {
  id: 'sub_1',
  plan_reference: '79541679412211',
  status: 'active',
  current_period_end: '2026-12-24T00:00:00.000Z',
  cancel_at_period_end: false,
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('subscriptions', () => {
  it('starts, switches, pauses, resumes and cancels, answering the subscription', async () => {
    const scope = nock(BASE)
      .get('/subscription')
      .reply(200, { subscription: null })
      .post('/subscription', { price_id: '79541679412211' })
      .reply(200, { subscription })
      .put('/subscription', { plan_reference: '79541679412212' })
      .reply(200, { subscription: { ...subscription, plan_reference: '79541679412212' } })
      .patch('/subscription', { action: 'pause' })
      .reply(200, { subscription: { ...subscription, status: 'paused' } })
      .patch('/subscription', { action: 'resume' })
      .reply(200, { subscription })
      .delete('/subscription')
      .reply(200, { subscription: { ...subscription, cancel_at_period_end: true } });
    const client = scrub();
    await expect(client.subscriptions.get()).resolves.toBeNull();
    await expect(client.subscriptions.start('79541679412211')).resolves.toEqual(subscription);
    await expect(client.subscriptions.switch('79541679412212')).resolves.toMatchObject({
      plan_reference: '79541679412212',
    });
    await expect(client.subscriptions.pause()).resolves.toMatchObject({ status: 'paused' });
    await expect(client.subscriptions.resume()).resolves.toMatchObject({ status: 'active' });
    await expect(client.subscriptions.cancel()).resolves.toMatchObject({ cancel_at_period_end: true });
    scope.done();
  });
});
