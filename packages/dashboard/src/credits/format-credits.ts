import type { CreditSnapshot } from '@scrub/sdk';

/** The seeds' low-credit threshold: under this the counter is styled low. */
export const LOW_CREDITS = 5000;

export function isUnlimited(snapshot: Pick<CreditSnapshot, 'has_unlimited' | 'credits_remaining'>): boolean {
  return snapshot.has_unlimited || snapshot.credits_remaining === 'unlimited';
}

/** UNLIMITED, or the count with thousands separators (12,345). */
export function formatCredits(snapshot: Pick<CreditSnapshot, 'has_unlimited' | 'credits_remaining'>): string {
  if (isUnlimited(snapshot)) return 'UNLIMITED';
  return Number(snapshot.credits_remaining).toLocaleString('en-US');
}

export function creditsLeft(snapshot: Pick<CreditSnapshot, 'credits_remaining'>): number {
  return snapshot.credits_remaining === 'unlimited' ? Number.POSITIVE_INFINITY : snapshot.credits_remaining;
}
