import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from './local-stripe.js';
import { LOCAL_STRIPE_KEYS, type RunningLocalStripe, startLocalStripe } from './start-local-stripe.js';

/**
 * Ids are the caller's strings: an id that is also the name of an object's own property, or that
 * holds a stray `%`, is an id like any other, found or not (404 or 400), never a 500.
 */
const ODD_IDS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'pm_%',
  '%',
  '100%25',
  'a%zz',
];

let running: RunningLocalStripe;
beforeAll(async () => {
  running = await startLocalStripe({ pollMs: 0 });
});
afterAll(() => running?.close());

const call = (method: string, path: string, body = '') =>
  fetch(`http://127.0.0.1:${running.port}/v1/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${LOCAL_STRIPE_KEYS.secretKey}`,
      ...(method === 'GET' || method === 'DELETE'
        ? {}
        : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(method === 'GET' || method === 'DELETE' ? {} : { body }),
  });

describe('ids the caller chose', () => {
  const withId = ROUTES.filter((route) => route.path.includes(':id'));

  it('are on every route that takes one', () => {
    expect(withId.length).toBeGreaterThan(20);
  });

  it.each(ODD_IDS)('%j answers 4xx on every route that takes an id', async (id) => {
    const failures: string[] = [];
    for (const route of withId) {
      // As an SDK sends it: the id percent-encoded once.
      const path = route.path.replace(':id', encodeURIComponent(id));
      const res = await call(route.method, path);
      if (res.status < 400 || res.status >= 500)
        failures.push(`${route.method} ${route.path}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(ODD_IDS)(
    '%j as a payment method or token to attach, confirm or use is refused, not a 500',
    async (id) => {
      const customer = (await (await call('POST', 'customers', 'email=odd%40example.com')).json()) as {
        id: string;
      };
      const attempts = [
        await call('POST', `payment_methods/${encodeURIComponent(id)}/attach`, `customer=${customer.id}`),
        await call(
          'POST',
          'setup_intents',
          `customer=${customer.id}&payment_method=${encodeURIComponent(id)}&confirm=true&usage=off_session`,
        ),
        await call(
          'POST',
          'payment_intents',
          `amount=100&currency=usd&customer=${customer.id}&payment_method=${encodeURIComponent(id)}&confirm=true`,
        ),
        await call('POST', 'customers', `email=t%40example.com&payment_method=${encodeURIComponent(id)}`),
        await call('POST', 'payment_methods', `type=card&card[token]=${encodeURIComponent(id)}`),
        await call('GET', `payment_methods?customer=${encodeURIComponent(id)}`),
        await call('GET', `customers/${customer.id}?expand[]=${encodeURIComponent(id)}`),
      ];
      expect(attempts.map((res) => res.status).filter((status) => status >= 500)).toEqual([]);
    },
  );
});
