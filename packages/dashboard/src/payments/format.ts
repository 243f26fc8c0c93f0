import type { PaymentMethod } from '@scrub/sdk';

/** $5, $1,400, $0.50: cents only when there are some, as the seeds write prices. */
export const dollars = (amount: number) =>
  amount.toLocaleString('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  });

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
