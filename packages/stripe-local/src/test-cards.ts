/**
 * How a card behaves, as in Stripe's test mode (docs.stripe.com/testing):
 * - `succeeds`: every payment succeeds;
 * - `declined` / `insufficient_funds`: refused when attached, set up or charged;
 * - `declined_after_attach`: attaches and sets up, then every charge is refused (4000000000000341);
 * - `authentication_required_on_setup`: 3-D Secure on setup and on payments, none for off-session
 *   payments once set up (4000002500003155);
 * - `authentication_required`: 3-D Secure on every payment (4000002760003184).
 */
export type CardBehaviour =
  | 'succeeds'
  | 'declined'
  | 'insufficient_funds'
  | 'declined_after_attach'
  | 'authentication_required_on_setup'
  | 'authentication_required';

export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'discover';
  behaviour: CardBehaviour;
}

const CARDS: TestCard[] = [
  { number: '4242424242424242', brand: 'visa', behaviour: 'succeeds' },
  { number: '4000056655665556', brand: 'visa', behaviour: 'succeeds' },
  { number: '5555555555554444', brand: 'mastercard', behaviour: 'succeeds' },
  { number: '378282246310005', brand: 'amex', behaviour: 'succeeds' },
  { number: '6011111111111117', brand: 'discover', behaviour: 'succeeds' },
  { number: '4000000000000002', brand: 'visa', behaviour: 'declined' },
  { number: '4000000000009995', brand: 'visa', behaviour: 'insufficient_funds' },
  { number: '4000000000000341', brand: 'visa', behaviour: 'declined_after_attach' },
  { number: '4000002500003155', brand: 'visa', behaviour: 'authentication_required_on_setup' },
  { number: '4000002760003184', brand: 'visa', behaviour: 'authentication_required' },
];

/**
 * Stripe's test payment method ids: each use makes a new payment method from its card. A Map: it is
 * read with the caller's id, and an object would answer `__proto__` or `toString` with its own.
 */
export const TEST_PAYMENT_METHODS: ReadonlyMap<string, string> = new Map([
  ['pm_card_visa', '4242424242424242'],
  ['pm_card_mastercard', '5555555555554444'],
  ['pm_card_amex', '378282246310005'],
  ['pm_card_chargeDeclined', '4000000000000002'],
  ['pm_card_chargeDeclinedInsufficientFunds', '4000000000009995'],
  ['pm_card_chargeCustomerFail', '4000000000000341'],
  ['pm_card_authenticationRequiredOnSetup', '4000002500003155'],
  ['pm_card_authenticationRequired', '4000002760003184'],
]);

/** A valid number that is not one of Stripe's test cards still works here, as a plain card that succeeds. */
export function testCardFor(number: string): TestCard | null {
  const digits = number.replace(/[\s-]/g, '');
  const known = CARDS.find((card) => card.number === digits);
  if (known) return known;
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) return null;
  const brand = digits.startsWith('4')
    ? 'visa'
    : /^5[1-5]|^2[2-7]/.test(digits)
      ? 'mastercard'
      : /^3[47]/.test(digits)
        ? 'amex'
        : 'discover';
  return { number: digits, brand, behaviour: 'succeeds' };
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The answer Stripe gives for each refusal. */
export const DECLINES = {
  declined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  authentication_required: {
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
  authentication_failed: {
    code: 'payment_intent_authentication_failure',
    message:
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  },
} as const;
