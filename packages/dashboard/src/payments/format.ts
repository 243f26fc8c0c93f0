import type { PaymentMethod } from '@scrub/sdk';

export const dollars = (amount: number) =>
  amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** "Visa ending 4242". */
export function cardName(card: Pick<PaymentMethod, 'brand' | 'last4'>): string {
  return `${BRANDS[card.brand] ?? 'Card'} ending ${card.last4}`;
}
