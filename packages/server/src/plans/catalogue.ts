import type { AmountOption, Plan } from '@scrub/contract';

/**
 * The plan catalogue, built from every fact the specification gives and filled in consistently
 * (docs/plans.md explains each number). The one price list everything derives from: 1,000 credits
 * cost $1.75, so the $5 minimum buys 2,857 credits ("roughly 2,850").
 */
export const DOLLARS_PER_CREDIT = 0.00175;

export function creditsFor(amount: number, percentOff = 0): number {
  return Math.floor(amount / (DOLLARS_PER_CREDIT * (1 - percentOff / 100)) + 1e-6);
}

function discountOf(amount: number, credits: number): number {
  return Math.max(0, Math.round((1 - amount / (credits * DOLLARS_PER_CREDIT)) * 100));
}

const option = (
  amount: number,
  credits: number | null,
  unlimitedDays: number | null = null,
): AmountOption => ({
  amount,
  credits,
  percent_off: credits === null ? 0 : discountOf(amount, credits),
  unlimited_days: unlimitedDays,
});

const payAsYouGo = (amount: number): AmountOption => option(amount, creditsFor(amount));

type PlanDraft = Omit<Plan, 'plan_amount' | 'percent_off' | 'plan_credits' | 'currency' | 'variable'>;

/** The first amount option sets the plan's headline price, discount and credits. */
function plan(draft: PlanDraft): Plan {
  const [first] = draft.amount_options;
  if (!first) throw new Error(`plan ${draft.plan_reference} has no amount option`);
  return {
    ...draft,
    plan_amount: first.amount,
    percent_off: first.percent_off,
    plan_credits: first.credits,
    currency: 'usd',
    variable: draft.amount_options.length > 1,
  };
}

export const planCatalogue: readonly Plan[] = [
  plan({
    plan_reference: '79541679412210',
    plan_name: 'CARD VERIFICATION',
    plan_subtitle: 'A $1 charge verifies your card and gives 500 credits plus a 200-credit bonus',
    plan_type: 'intro',
    plan_credits_text: '500 credits + 200 bonus credits',
    bonus_credits: 200,
    interval: null,
    unlimited: false,
    amount_options: [option(1, 500)],
  }),
  plan({
    plan_reference: '79541679412213',
    plan_name: 'FLEXIBLE CREDITS',
    plan_subtitle: 'Buy any amount from $5; credits never expire',
    plan_type: 'prepaid',
    plan_credits_text: '2,857 credits for $5 ($1.75 per 1,000)',
    bonus_credits: 0,
    interval: null,
    unlimited: false,
    amount_options: [5, 10, 20, 50, 100].map(payAsYouGo),
  }),
  plan({
    plan_reference: '79541679412216',
    plan_name: 'BULK',
    plan_subtitle: 'Volume credit packs, up to 20% off',
    plan_type: 'prepaid',
    plan_credits_text: '50,000 to 1,000,000 credits',
    bonus_credits: 0,
    interval: null,
    unlimited: false,
    amount_options: [option(83, 50_000), option(158, 100_000), option(744, 500_000), option(1400, 1_000_000)],
  }),
  plan({
    plan_reference: '79541679412215',
    plan_name: 'UNLIMITED PASS',
    plan_subtitle: 'Unlimited checks for a day, two days or ten days',
    plan_type: 'prepaid',
    plan_credits_text: 'Unlimited checks while the pass lasts',
    bonus_credits: 0,
    interval: null,
    unlimited: true,
    amount_options: [option(5, null, 1), option(10, null, 2), option(50, null, 10)],
  }),
  plan({
    plan_reference: '79541679412211',
    plan_name: 'STANDARD',
    plan_subtitle: '30,000 credits every month',
    plan_type: 'postpaid',
    plan_credits_text: '30,000 credits / month',
    bonus_credits: 0,
    interval: 'month',
    unlimited: false,
    amount_options: [option(49, 30_000)],
  }),
  plan({
    plan_reference: '79541679412212',
    plan_name: 'POWER',
    plan_subtitle: '75,000 credits every month',
    plan_type: 'postpaid',
    plan_credits_text: '75,000 credits / month',
    bonus_credits: 0,
    interval: 'month',
    unlimited: false,
    amount_options: [option(99, 75_000)],
  }),
  plan({
    plan_reference: '79541679412214',
    plan_name: 'ELITE',
    plan_subtitle: 'Unlimited checks, billed monthly',
    plan_type: 'postpaid',
    plan_credits_text: 'Unlimited checks / month',
    bonus_credits: 0,
    interval: 'month',
    unlimited: true,
    amount_options: [option(129, null)],
  }),
];
