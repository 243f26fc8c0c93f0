import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_test', maxRetries: 0 });

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('cards', () => {
  it('card links: made with credentials, used without', async () => {
    const link = { url: 'http://scrub.test/card?grant=g', expires_at: '2026-11-25T17:00:00.000Z' };
    const scope = nock(BASE)
      .post('/payment/card-link')
      .reply(200, link)
      .get('/payment/links/g')
      .reply(200, { purpose: 'add_card', expires_at: link.expires_at, client_secret: null })
      .post('/payment/links/g/setup', (body) => body.payment_method_id === 'pm_1' && !('grant' in body))
      .reply(200, { message: 'Card Added Successfully.' });
    const client = scrub();
    expect(await client.cards.createCardLink()).toEqual(link);
    expect((await client.cards.getLink('g')).purpose).toBe('add_card');
    expect(
      await client.cards.setupWithLink('g', {
        customer_name: 'Pat',
        line1: '1 Main St',
        city: 'Newark',
        state: 'NJ',
        payment_method_id: 'pm_1',
      }),
    ).toBe('Card Added Successfully.');
    expect(scope.isDone()).toBe(true);
  });

  it('reads the customer, the saved cards, and saves a card with its address', async () => {
    const card = {
      id: 'pm_1',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2040,
      is_default: true,
    };
    const setup = {
      customer_name: 'Pat',
      line1: '1 Main St',
      city: 'Newark',
      state: 'NJ',
      payment_method_id: 'pm_1',
    };
    const scope = nock(BASE)
      .get('/customer/exists')
      .reply(200, { exists: true })
      .get('/payment-methods')
      .reply(200, { payment_methods: [card] })
      .get('/payment-methods/exists')
      .reply(200, { exists: true })
      .post('/payment/setup', setup)
      .reply(200, { message: 'Card Added Successfully.' })
      .put('/payment-method', { payment_method_id: 'pm_1' })
      .reply(200, { message: 'Card Updated Successfully' })
      .delete('/payment-methods/pm_1')
      .reply(200, { message: 'Card Removed Successfully: visa ending 4242.' });
    const client = scrub();
    await expect(client.cards.customerExists()).resolves.toBe(true);
    await expect(client.cards.listMethods()).resolves.toEqual([card]);
    await expect(client.cards.hasMethod()).resolves.toBe(true);
    await expect(client.cards.setup(setup)).resolves.toBe('Card Added Successfully.');
    await expect(client.cards.setDefaultMethod('pm_1')).resolves.toBe('Card Updated Successfully');
    await expect(client.cards.removeMethod('pm_1')).resolves.toBe(
      'Card Removed Successfully: visa ending 4242.',
    );
    scope.done();
  });
});
