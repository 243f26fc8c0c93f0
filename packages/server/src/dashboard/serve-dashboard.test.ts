import { describe, expect, it } from 'vitest';
import { LOCAL_KEYS } from '../config/payment-settings.js';
import { contentSecurityPolicy } from './serve-dashboard.js';

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((part) => part.startsWith(`${name} `))
    ?.split(' ')
    .slice(1);

describe("the dashboard's content security policy", () => {
  const base = { cognito: null, blobStore: { kind: 'local' } } as const;

  it('allows scripts, frames and calls from this origin only with the built-in payment provider', () => {
    const policy = contentSecurityPolicy({
      ...base,
      payments: { kind: 'local', ...LOCAL_KEYS, webhookUrl: null },
    } as Parameters<typeof contentSecurityPolicy>[0]);
    expect(directive(policy, 'script-src')).toEqual(["'self'"]);
    expect(directive(policy, 'frame-src')).toEqual(["'self'"]);
    expect(directive(policy, 'connect-src')).toEqual(["'self'"]);
  });

  it("lets Stripe.js, its card frames and Stripe's API in when Stripe takes the cards", () => {
    const policy = contentSecurityPolicy({
      ...base,
      payments: { kind: 'stripe', secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: null },
    } as Parameters<typeof contentSecurityPolicy>[0]);
    expect(directive(policy, 'script-src')).toEqual(["'self'", 'https://js.stripe.com']);
    expect(directive(policy, 'frame-src')).toContain('https://js.stripe.com');
    expect(directive(policy, 'connect-src')).toContain('https://api.stripe.com');
  });
});
