import type { Plan } from '@scrub/contract';
import { priceOf } from './plan-pricing.js';
import type { PurchaseGrant } from './purchase-ledger.js';

/**
 * What a paid plan gives, from the plan and the amount paid: the one rule used by the route that
 * saw the payment, and by the webhook reporting it (a 3-D Secure payment completed later).
 */
export function grantOf(
  profileId: string,
  kind: PurchaseGrant['kind'],
  plan: Plan,
  amountCents: number,
  providerObjectId: string,
  autoTopUp = false,
): PurchaseGrant {
  const base = {
    ...(autoTopUp ? { autoTopUp } : {}),
    profileId,
    kind,
    planReference: plan.plan_reference,
    planName: plan.plan_name,
    amountCents,
    providerObjectId,
  };
  if (kind === 'purchase') {
    const price = priceOf(plan, amountCents / 100);
    return { ...base, credits: price.credits, bonusCredits: plan.bonus_credits, unlimited: price.unlimited };
  }
  return {
    ...base,
    credits: plan.plan_credits ?? 0,
    bonusCredits: kind === 'intro' ? plan.bonus_credits : 0,
    unlimited: plan.unlimited ? { days: null } : null,
  };
}

/** Metadata a charge carries so that its webhook can grant what it paid for. */
export interface ChargeMetadata extends Record<string, string> {
  scrub_profile_id: string;
  scrub_kind: 'intro' | 'purchase';
  scrub_plan_reference: string;
  // `scrub_auto_top_up: 'true'` on a charge made by auto top-up.
}

export function chargeMetadataOf(value: unknown): ChargeMetadata | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (typeof m.scrub_profile_id !== 'string' || typeof m.scrub_plan_reference !== 'string') return null;
  if (m.scrub_kind !== 'intro' && m.scrub_kind !== 'purchase') return null;
  return m as ChargeMetadata;
}
