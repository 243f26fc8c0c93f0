import type Stripe from 'stripe';

/**
 * The `stripe` SDK, loaded on the first payment call rather than at start: it is the largest
 * module the service has (about 10 MB of an idle process's memory) and most processes make no
 * payment call for a long while, or ever.
 */
let loaded: typeof Stripe | null = null;

export async function loadStripe(): Promise<typeof Stripe> {
  loaded ??= (await import('stripe')).default;
  return loaded;
}

/** The SDK's error classes once it is loaded; null before, when no call can have failed through it. */
export function stripeErrors(): (typeof Stripe)['errors'] | null {
  return loaded?.errors ?? null;
}
