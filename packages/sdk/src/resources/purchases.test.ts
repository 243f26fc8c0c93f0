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
beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('purchases', () => {
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
    const error = await client.purchases.buy({ reference_code: '79541679412213', amount: 5 }).catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationRequiredError);
    expect(error).toMatchObject({
      clientSecret: 'pi_1_secret_x',
      paymentIntentId: 'pi_1',
      nextActionUrl: 'http://scrub.test/authenticate?grant=g',
    });
    const seen: string[] = [];
    const done = await client.purchases.waitForConfirmation('pi_1', {
      pollInterval: 1,
      onPoll: (state) => seen.push(state.status),
    });
    expect(seen).toEqual(['requires_action', 'requires_action', 'succeeded']);
    expect(done.purchase).toEqual(purchase);
    expect(scope.isDone()).toBe(true);
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
      .purchases.buy({ reference_code: '79541679412213', amount: 5 })
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
    const declined = (await client.purchases
      .buy({ reference_code: '1234567' })
      .catch((e) => e)) as CardDeclinedError;
    expect(declined.declineCode).toBe('generic_decline');
    const action = (await client.purchases
      .buy({ reference_code: '1234567' })
      .catch((e) => e)) as AuthenticationRequiredError;
    expect(action.clientSecret).toBe('pi_1_secret_x');
    const paused = await client.verify('2023334444').catch((e) => e);
    expect(paused).toBeInstanceOf(PermissionDeniedError);
    expect(paused).toBeInstanceOf(PlanPausedError);
  });

  it('lists the history of a month', async () => {
    const row = {
      plan_reference: '79541679412213',
      plan_name: 'FLEXIBLE CREDITS',
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

  it('auto top-up: reads and sets the settings; without a card, PaymentMethodRequiredError', async () => {
    const settings = {
      enabled: true,
      status: 'active',
      threshold: 1000,
      plan_reference: '79541679412213',
      plan_name: 'FLEXIBLE CREDITS',
      amount: 10,
      credits: 5714,
      stopped_reason: null,
      stopped_at: null,
      low_balance_threshold: 5000,
      last_attempt: null,
    };
    const body = { enabled: true, threshold: 1000, plan_reference: '79541679412213', amount: 10 };
    const scope = nock(BASE)
      .put('/payment/auto-top-up', body)
      .reply(200, settings)
      .get('/payment/auto-top-up')
      .reply(200, {
        ...settings,
        enabled: false,
        status: 'stopped',
        stopped_reason: 'Your card was declined.',
      })
      .put('/payment/auto-top-up', { enabled: true })
      .reply(
        409,
        failure('payment_method_required', 'Auto top-up charges your default card: add a card first.'),
      );
    const client = scrub();
    expect(await client.purchases.setAutoTopUp(body)).toEqual(settings);
    expect(await client.purchases.getAutoTopUp()).toMatchObject({
      status: 'stopped',
      stopped_reason: 'Your card was declined.',
    });
    await expect(client.purchases.setAutoTopUp({ enabled: true })).rejects.toBeInstanceOf(
      PaymentMethodRequiredError,
    );
    expect(scope.isDone()).toBe(true);
  });
});
