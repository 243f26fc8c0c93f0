import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { scrub } from '../api/scrub-client';

let loading: Promise<Stripe> | null = null;

function addScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () =>
      reject(new Error('The card form could not be loaded. Check your connection and reload the page.'));
    document.head.appendChild(script);
  });
}

/**
 * Stripe.js from the URL `GET /config` names: Stripe's own, or the service's stand-in when its
 * built-in provider takes the cards. The same code either way: the script sets `window.Stripe`, and
 * `loadStripe` (the `pure` entry, which injects nothing by itself) takes it. Loaded once, on the
 * first screen that needs it, never with the shell.
 */
export function loadPaymentsJs(): Promise<Stripe> {
  loading ??= (async () => {
    const config = await scrub.config();
    if (!config.payments) throw new Error('Card payments are not available on this service.');
    if (!window.Stripe) await addScript(config.payments.js_url);
    const stripe = await loadStripe(config.payments.publishable_key);
    if (!stripe) throw new Error('The card form could not be loaded. Reload the page.');
    return stripe;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
