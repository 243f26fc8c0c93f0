import { ConfigError } from '../errors/config-error.js';

/**
 * Where payments go. `stripe`: real Stripe (test or live keys). `local`: the built-in provider,
 * which speaks Stripe's API under `/_stripe` on the service's own port, with keys of its own.
 */
export type PaymentSettings =
  | { kind: 'stripe'; secretKey: string; publishableKey: string; webhookSecret: string | null }
  | {
      kind: 'local';
      secretKey: string;
      publishableKey: string;
      webhookSecret: string;
      /** Where the built-in provider posts its events; null: kept, listed by `GET /v1/events`, never sent. */
      webhookUrl: string | null;
    };

/** Fixed local keys: they name the mode (test) and open nothing outside this process. */
export const LOCAL_KEYS = {
  secretKey: 'sk_test_local_scrub',
  publishableKey: 'pk_test_local_scrub',
  webhookSecret: 'whsec_local_scrub',
} as const;

/**
 * Reads STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET (and, for the built-in
 * provider, SCRUB_STRIPE_WEBHOOK_URL). A secret key selects real Stripe; without one the built-in
 * provider serves, and it refuses production settings, as the built-in identity pool does.
 */
export function loadPaymentSettings(env: NodeJS.ProcessEnv = process.env): PaymentSettings {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || null;
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY?.trim() || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || null;
  if (secretKey) {
    if (!/^(sk|rk)_(test|live)_/.test(secretKey)) {
      throw new ConfigError(
        'Invalid settings: STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_... or sk_live_...)',
      );
    }
    if (!publishableKey || !/^pk_(test|live)_/.test(publishableKey)) {
      throw new ConfigError(
        'Invalid settings: STRIPE_SECRET_KEY needs STRIPE_PUBLISHABLE_KEY (pk_test_... or pk_live_...) for the card form',
      );
    }
    if (modeOf(secretKey) !== modeOf(publishableKey)) {
      throw new ConfigError(
        'Invalid settings: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are from different modes (test and live)',
      );
    }
    if (webhookSecret && !webhookSecret.startsWith('whsec_')) {
      throw new ConfigError(
        'Invalid settings: STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_...)',
      );
    }
    return { kind: 'stripe', secretKey, publishableKey, webhookSecret };
  }
  if (publishableKey || webhookSecret) {
    throw new ConfigError(
      'Invalid settings: STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET need STRIPE_SECRET_KEY; set none of them to use the built-in payment provider',
    );
  }
  if (env.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid settings: NODE_ENV=production needs Stripe (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET); the built-in payment provider is for local use only',
    );
  }
  return { kind: 'local', ...LOCAL_KEYS, webhookUrl: env.SCRUB_STRIPE_WEBHOOK_URL?.trim() || null };
}

const modeOf = (key: string) => (key.includes('_live_') ? 'live' : 'test');
