// @vitest-environment jsdom
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe as StripeJs } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure/index.js';
import { act, createElement, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOCAL_STRIPE_KEYS, type RunningLocalStripe, startLocalStripe } from './start-local-stripe.js';

/** The DOM as this test uses it (the workspace's TypeScript program has no DOM library). */
interface DomElement {
  name: string;
  value: string;
  textContent: string | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement> & Iterable<DomElement>;
  appendChild(child: DomElement): void;
  dispatchEvent(event: unknown): boolean;
  click(): void;
}
const { window, document } = globalThis as unknown as {
  window: {
    Stripe?: unknown;
    Event: new (type: string, init?: object) => unknown;
    eval(code: string): unknown;
  };
  document: {
    createElement(tag: string): DomElement;
    querySelector(selector: string): DomElement | null;
    body: DomElement;
  };
};

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Types into an input as a person would: React-free DOM events, as the stand-in listens. */
function type(input: DomElement, value: string) {
  input.value = value;
  input.dispatchEvent(new window.Event('input', { bubbles: true }));
}

function fillCard(
  node: DomElement,
  card: { number: string; expiry?: string; cvc?: string; postal?: string },
) {
  const input = (name: string) => node.querySelector(`input[name="${name}"]`)!;
  type(input('cardnumber'), card.number);
  type(input('exp-date'), card.expiry ?? '12 / 34');
  type(input('cvc'), card.cvc ?? '123');
  type(input('postal'), card.postal ?? '78701');
}

describe('the stand-in Stripe.js, under the real @stripe/react-stripe-js', () => {
  let server: RunningLocalStripe;
  /** The service's side: the real `stripe` SDK, pointed at the provider. */
  let sdk: Stripe;
  let stripe: StripeJs;
  let root: Root;
  let container: DomElement;
  const warnings = vi.spyOn(console, 'warn');
  const changes: { complete: boolean; error?: { message: string } }[] = [];
  let api: { stripe: ReturnType<typeof useStripe>; elements: ReturnType<typeof useElements> } | null = null;

  function Probe() {
    const s = useStripe();
    const e = useElements();
    useEffect(() => {
      api = { stripe: s, elements: e };
    });
    return null;
  }

  beforeAll(async () => {
    server = await startLocalStripe({ pollMs: 0 });
    sdk = new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: '127.0.0.1', port: server.port, protocol: 'http' });
    // The page loads the script before its bundle, as the service will serve it.
    const script = await (await fetch(server.stripeJsUrl)).text();
    window.eval(script);
    stripe = (await loadStripe(LOCAL_STRIPE_KEYS.publishableKey))!;
    container = document.createElement('div');
    document.body.appendChild(container);
    root = createRoot(container as never);
    await act(async () => {
      root.render(
        createElement(
          Elements,
          { stripe, options: { locale: 'en' } },
          createElement(CardElement, {
            onChange: (e: { complete: boolean; error?: { message: string } }) => changes.push(e),
          }),
          createElement(Probe),
        ),
      );
    });
  });

  afterAll(async () => {
    await act(async () => root?.unmount());
    await server?.close();
  });

  it('is taken by loadStripe without a warning, and registers the wrappers', () => {
    expect(window.Stripe).toBeTypeOf('function');
    expect((window.Stripe as unknown as { version: string }).version).toBe('endive');
    expect(warnings).not.toHaveBeenCalled();
    const wrappers = (stripe as unknown as { _wrappers: { name: string }[] })._wrappers.map((w) => w.name);
    expect(wrappers).toEqual(expect.arrayContaining(['stripe-js', 'react-stripe-js']));
  });

  it('mounts real inputs for number, expiry, CVC and postal code', () => {
    const names = [...container.querySelectorAll('input')].map((i) => i.name);
    expect(names).toEqual(['cardnumber', 'exp-date', 'cvc', 'postal']);
    expect(api?.elements?.getElement(CardElement)).toBeTruthy();
  });

  it('formats the number in groups of four and the expiry as MM / YY while typing, and wraps on a phone', () => {
    const input = (name: string) => container.querySelector(`input[name="${name}"]`)!;
    type(input('cardnumber'), '4242424242424242');
    expect(input('cardnumber').value).toBe('4242 4242 4242 4242');
    type(input('cardnumber'), '378282246310005');
    expect(input('cardnumber').value).toBe('3782 822463 10005');
    type(input('exp-date'), '1234');
    expect(input('exp-date').value).toBe('12 / 34');
    type(input('exp-date'), '4');
    expect(input('exp-date').value).toBe('04');
    // A row that wraps: at 390 px the number takes a line of its own instead of being cut off.
    const row = container.querySelector('[data-stand-in="stripe-card"]') as unknown as {
      style: { flexWrap: string };
    };
    expect(row.style.flexWrap).toBe('wrap');
  });

  it('creates a payment method on the built-in provider through useStripe().createPaymentMethod', async () => {
    fillCard(container, { number: '4242 4242 4242 4242' });
    expect(changes.at(-1)).toMatchObject({ complete: true });
    const card = api!.elements!.getElement(CardElement)!;
    const result = await api!.stripe!.createPaymentMethod({
      type: 'card',
      card,
      billing_details: { name: 'Ann Payer', address: { line1: '1 Main St', city: 'Austin', state: 'TX' } },
    });
    expect(result.error).toBeUndefined();
    expect(result.paymentMethod).toMatchObject({ type: 'card', card: { brand: 'visa', last4: '4242' } });
    const stored = await sdk.paymentMethods.retrieve(result.paymentMethod!.id);
    expect(stored.billing_details).toMatchObject({
      name: 'Ann Payer',
      address: { line1: '1 Main St', postal_code: '78701' },
    });
  });

  it('says why a card number is wrong while typing, and refuses an incomplete card', async () => {
    fillCard(container, { number: '4242 4242 4242 4241' });
    expect(changes.at(-1)).toMatchObject({
      complete: false,
      error: { message: 'Your card number is invalid.' },
    });
    fillCard(container, { number: '4242' });
    const result = await api!.stripe!.createPaymentMethod({
      type: 'card',
      card: api!.elements!.getElement(CardElement)!,
    });
    expect(result.error).toMatchObject({
      type: 'validation_error',
      message: 'Your card number is incomplete.',
    });
  });

  it('gives the decline message for a declined card when it is saved or charged', async () => {
    fillCard(container, { number: '4000 0000 0000 0002' });
    const { paymentMethod } = await api!.stripe!.createPaymentMethod({
      type: 'card',
      card: api!.elements!.getElement(CardElement)!,
    });
    const customer = await sdk.customers.create({ email: 'browser@example.com' });
    const setup = await sdk.setupIntents.create({ customer: customer.id });
    const saved = await api!.stripe!.confirmCardSetup(setup.client_secret!, {
      payment_method: paymentMethod!.id,
    });
    expect(saved.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
    });

    const intent = await sdk.paymentIntents.create({
      amount: 1099,
      currency: 'usd',
    });
    const paid = await api!.stripe!.confirmCardPayment(intent.client_secret!, {
      payment_method: { card: api!.elements!.getElement(CardElement)! },
    });
    expect(paid.error).toMatchObject({
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    expect(paid.error?.payment_intent?.status).toBe('requires_payment_method');
  });

  it('shows the 3-D Secure modal: completing it pays, failing it refuses', async () => {
    fillCard(container, { number: '4000 0025 0000 3155' });
    const pay = async (button: string) => {
      const intent = await sdk.paymentIntents.create({
        amount: 500,
        currency: 'usd',
      });
      const pending = api!.stripe!.confirmCardPayment(intent.client_secret!, {
        payment_method: { card: api!.elements!.getElement(CardElement)! },
      });
      const modal = await vi.waitFor(() => {
        const found = document.querySelector('[data-stand-in="stripe-3ds"]');
        if (!found) throw new Error('no modal yet');
        return found;
      });
      const choice = [...modal.querySelectorAll('button')].find((b) => b.textContent === button)!;
      choice.click();
      return pending;
    };
    const completed = await pay('Complete authentication');
    expect(completed.paymentIntent).toMatchObject({ status: 'succeeded', amount: 500 });
    const failed = await pay('Fail authentication');
    expect(failed.error).toMatchObject({ code: 'payment_intent_authentication_failure' });
    expect(document.querySelector('[data-stand-in="stripe-3ds"]')).toBeNull();
  });

  it('creates a token (createToken), and is cleared and destroyed with its component', async () => {
    fillCard(container, { number: '4242424242424242' });
    const { token } = await api!.stripe!.createToken(api!.elements!.getElement(CardElement)!);
    expect(token).toMatchObject({ object: 'token', card: { last4: '4242' } });
    await act(async () => root.render(createElement(Elements, { stripe }, createElement(Probe))));
    expect(container.querySelectorAll('input')).toHaveLength(0);
  });
});
