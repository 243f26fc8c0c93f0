import { describe, expect, it } from 'vitest';
import { LOCAL_KEYS, loadPaymentSettings } from './payment-settings.js';

describe('payment settings', () => {
  it('serves the built-in provider without Stripe keys, posting webhooks where told', () => {
    expect(loadPaymentSettings({})).toEqual({ kind: 'local', ...LOCAL_KEYS, webhookUrl: null });
    expect(loadPaymentSettings({ SCRUB_STRIPE_WEBHOOK_URL: 'http://127.0.0.1:9/hooks' })).toMatchObject({
      webhookUrl: 'http://127.0.0.1:9/hooks',
    });
  });

  it('selects Stripe with a secret and a publishable key of the same mode', () => {
    expect(
      loadPaymentSettings({
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
      }),
    ).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_1',
      publishableKey: 'pk_test_1',
      webhookSecret: 'whsec_1',
    });
    expect(() =>
      loadPaymentSettings({ STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' }),
    ).toThrow(/different modes/);
    expect(() => loadPaymentSettings({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() =>
      loadPaymentSettings({ STRIPE_SECRET_KEY: 'nonsense', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' }),
    ).toThrow(/secret key/);
  });

  it('refuses the built-in provider in production, and half a Stripe configuration', () => {
    expect(() => loadPaymentSettings({ NODE_ENV: 'production' })).toThrow(
      /built-in payment provider is for local use only/,
    );
    expect(() => loadPaymentSettings({ STRIPE_PUBLISHABLE_KEY: 'pk_live_1' })).toThrow(
      /need STRIPE_SECRET_KEY/,
    );
  });
});
