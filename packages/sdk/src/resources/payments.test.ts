import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';
import {
  AuthenticationRequiredError,
  CardDeclinedError,
  IdempotencyKeyReusedError,
  InsufficientCreditsError,
  PaymentMethodRequiredError,
  PermissionDeniedError,
  PlanPausedError,
} from '../errors.js';

const BASE = 'http://scrub.test';
const scrub = () => new Scrub({ baseURL: BASE, apiKey: 'scrub_test', maxRetries: 0 });
const failure = (code: string, message: string, extra: object = {}) => ({
  error: { code, message },
  message,
  ...extra,
});
const subscription = {
  id: 'sub_1',
  plan_reference: '79541679412211',
  status: 'active',
  current_period_end: '2026-12-24T00:00:00.000Z',
  cancel_at_period_end: false,
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('payments', () => {
  it('3-D Secure: the error names the payment and its page; waitForConfirmation asks until it is decided', async () => {
    const purchase = {
      message: 'Payment Complete',
      purchase_id: 'p-1',
      plan_reference: '79541679412213',
      amount: 5,
      credits_added: 2857,
    };
    const scope = nock(BASE)
      .post('/payment')
      .reply(
        402,
        failure('authentication_required', 'Confirm it', {
          client_secret: 'pi_1_secret_x',
          payment_intent_id: 'pi_1',
          next_action_url: 'http://scrub.test/authenticate?grant=g',
        }),
      )
      .post('/payment/confirm', { payment_intent_id: 'pi_1' })
      .twice()
      .reply(200, { status: 'requires_action', message: 'Waiting', purchase: null })
      .post('/payment/confirm', { payment_intent_id: 'pi_1' })
      .reply(200, { status: 'succeeded', message: 'Payment Complete', purchase });
    const client = scrub();
    const error = await client.payments.buy({ reference_code: '79541679412213', amount: 5 }).catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationRequiredError);
    expect(error).toMatchObject({
      clientSecret: 'pi_1_secret_x',
      paymentIntentId: 'pi_1',
      nextActionUrl: 'http://scrub.test/authenticate?grant=g',
    });
    const seen: string[] = [];
    const done = await client.payments.waitForConfirmation('pi_1', {
      pollInterval: 1,
      onPoll: (state) => seen.push(state.status),
    });
    expect(seen).toEqual(['requires_action', 'requires_action', 'succeeded']);
    expect(done.purchase).toEqual(purchase);
    expect(scope.isDone()).toBe(true);
  });

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
    expect(await client.payments.createCardLink()).toEqual(link);
    expect((await client.payments.getLink('g')).purpose).toBe('add_card');
    expect(
      await client.payments.setupWithLink('g', {
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
      .reply(200, { message: 'Card Updated Successfully' });
    const client = scrub();
    await expect(client.payments.customerExists()).resolves.toBe(true);
    await expect(client.payments.listMethods()).resolves.toEqual([card]);
    await expect(client.payments.hasMethod()).resolves.toBe(true);
    await expect(client.payments.setup(setup)).resolves.toBe('Card Added Successfully.');
    await expect(client.payments.setDefaultMethod('pm_1')).resolves.toBe('Card Updated Successfully');
    scope.done();
  });

  it.each([
    [
      402,
      failure('card_declined', 'Your card was declined. (insufficient_funds)', {
        decline_code: 'insufficient_funds',
      }),
      CardDeclinedError,
    ],
    [
      402,
      failure('authentication_required', 'Confirm it', { client_secret: 'pi_1_secret_x' }),
      AuthenticationRequiredError,
    ],
    [
      402,
      failure('insufficient_credits', 'Not enough', { credits_required: 5, credits_available: 1 }),
      InsufficientCreditsError,
    ],
    [403, failure('plan_paused', 'please activate your account first'), PlanPausedError],
    [409, failure('payment_method_required', 'Add a card first'), PaymentMethodRequiredError],
    [422, failure('idempotency_key_reused', 'Another request'), IdempotencyKeyReusedError],
  ])('maps a %i %j to its error class', async (status, body, ErrorClass) => {
    nock(BASE).post('/payment').reply(status, body);
    const error = await scrub()
      .payments.buy({ reference_code: '79541679412213', amount: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code: body.error.code });
  });

  it('carries the decline reason and the 3-D Secure client secret; a paused plan is also a PermissionDeniedError', async () => {
    nock(BASE)
      .post('/payment')
      .reply(402, failure('card_declined', 'Your card was declined.', { decline_code: 'generic_decline' }))
      .post('/payment')
      .reply(402, failure('authentication_required', 'Confirm it', { client_secret: 'pi_1_secret_x' }))
      .get('/verify')
      .query(true)
      .reply(403, failure('plan_paused', 'paused'));
    const client = scrub();
    const declined = (await client.payments
      .buy({ reference_code: '1234567' })
      .catch((e) => e)) as CardDeclinedError;
    expect(declined.declineCode).toBe('generic_decline');
    const action = (await client.payments
      .buy({ reference_code: '1234567' })
      .catch((e) => e)) as AuthenticationRequiredError;
    expect(action.clientSecret).toBe('pi_1_secret_x');
    const paused = await client.verify('2023334444').catch((e) => e);
    expect(paused).toBeInstanceOf(PermissionDeniedError);
    expect(paused).toBeInstanceOf(PlanPausedError);
  });
});

describe('subscription', () => {
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
    await expect(client.subscription.get()).resolves.toBeNull();
    await expect(client.subscription.start('79541679412211')).resolves.toEqual(subscription);
    await expect(client.subscription.switch('79541679412212')).resolves.toMatchObject({
      plan_reference: '79541679412212',
    });
    await expect(client.subscription.pause()).resolves.toMatchObject({ status: 'paused' });
    await expect(client.subscription.resume()).resolves.toMatchObject({ status: 'active' });
    await expect(client.subscription.cancel()).resolves.toMatchObject({ cancel_at_period_end: true });
    scope.done();
  });
});

describe('purchases', () => {
  it('lists the history of a month', async () => {
    const row = {
      plan_reference: '79541679412213',
      plan_name: 'PAY AS YOU GO',
      purchase_date: '2026-11-24T00:00:00.000Z',
      purchase_amount: 5,
      credits_added: 2857,
    };
    const scope = nock(BASE)
      .get('/purchases')
      .query({ year: '2026', month: '11', per_page: '20' })
      .reply(200, { purchases: [row] });
    await expect(scrub().purchases.list({ year: 2026, month: 11, per_page: 20 })).resolves.toEqual([row]);
    scope.done();
  });
});
