import type { Plan } from '@scrub/contract';
import { ApiError } from '../errors/api-error.js';

/** Seed document 1, section 9: the smallest single purchase. */
export const MINIMUM_PURCHASE_DOLLARS = 5;

export interface PlanPrice {
  amountCents: number;
  credits: number;
  /** Null for credit plans; for unlimited plans, the pass length (null: monthly, while subscribed). */
  unlimited: { days: number | null } | null;
}

const dollars = (amount: number) => `$${amount}`;

/**
 * What buying `plan` at `amount` dollars costs and gives. A variable plan takes one of its amount
 * choices (seed document 1, section 5) and needs one; a fixed plan takes its one price.
 */
export function priceOf(plan: Plan, amount: number | undefined): PlanPrice {
  const choices = plan.amount_options.map((o) => dollars(o.amount)).join(', ');
  if (plan.variable && amount === undefined) {
    throw new ApiError(
      'validation_failed',
      `${plan.plan_name} is bought by amount: choose one of ${choices}.`,
      { issues: [{ location: 'body', path: 'amount', message: `one of ${choices}` }] },
    );
  }
  const option =
    amount === undefined ? plan.amount_options[0] : plan.amount_options.find((o) => o.amount === amount);
  if (!option) {
    throw new ApiError(
      'validation_failed',
      `${plan.plan_name} is not sold at ${dollars(amount ?? 0)}: choose one of ${choices}.`,
      { issues: [{ location: 'body', path: 'amount', message: `one of ${choices}` }] },
    );
  }
  return {
    amountCents: Math.round(option.amount * 100),
    credits: option.credits ?? 0,
    unlimited: plan.unlimited ? { days: option.unlimited_days } : null,
  };
}

/** A purchase of at least the minimum (the $1 card verification is the one exception, made elsewhere). */
export function requireMinimum(price: PlanPrice): void {
  if (price.amountCents < MINIMUM_PURCHASE_DOLLARS * 100) {
    throw new ApiError(
      'validation_failed',
      `The smallest purchase is ${dollars(MINIMUM_PURCHASE_DOLLARS)}.`,
      {
        issues: [
          { location: 'body', path: 'amount', message: `at least ${dollars(MINIMUM_PURCHASE_DOLLARS)}` },
        ],
      },
    );
  }
}
