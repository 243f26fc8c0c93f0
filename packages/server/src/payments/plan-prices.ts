import type { Plan } from '@scrub/contract';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors/api-error.js';
import type { PaymentProvider } from '../payment-provider/payment-provider.js';
import { listPlans } from '../plans/plan-store.js';
import type { Database } from '../storage/schema.js';

/**
 * The catalogue's plans and the provider's monthly prices of the postpaid ones (by lookup key,
 * created on first use), both ways: subscriptions are made from a plan, and invoices name a price.
 */
export class PlanPrices {
  #prices: Promise<Map<string, string>> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly provider: PaymentProvider,
  ) {}

  catalogue(): Promise<Plan[]> {
    return listPlans(this.db);
  }

  async plan(reference: string): Promise<Plan> {
    const plan = (await listPlans(this.db)).find((p) => p.plan_reference === reference);
    if (!plan) throw new ApiError('not_found', `No plan with reference ${reference}: see GET /plans.`);
    return plan;
  }

  /** A postpaid plan, named by its reference or by its provider price id. */
  async subscriptionPlan(referenceOrPrice: string): Promise<{ plan: Plan; priceId: string }> {
    const prices = await this.prices();
    const reference = prices.has(referenceOrPrice)
      ? referenceOrPrice
      : [...prices].find(([, price]) => price === referenceOrPrice)?.[0];
    if (reference === undefined) {
      const known = await this.plan(referenceOrPrice).catch(() => null);
      throw new ApiError(
        'validation_failed',
        known
          ? `${known.plan_name} is not a monthly plan: buy it with POST /payment.`
          : `No monthly plan ${referenceOrPrice}: name a postpaid plan's reference (GET /plans).`,
      );
    }
    return { plan: await this.plan(reference), priceId: prices.get(reference)! };
  }

  /** The plan a price bills, or null for a price the catalogue does not know. */
  async planOfPrice(priceId: string): Promise<Plan | null> {
    const entry = [...(await this.prices())].find(([, price]) => price === priceId);
    return entry ? this.plan(entry[0]) : null;
  }

  private prices(): Promise<Map<string, string>> {
    this.#prices ??= this.ensurePrices().catch((error) => {
      this.#prices = null;
      throw error;
    });
    return this.#prices;
  }

  private async ensurePrices(): Promise<Map<string, string>> {
    const prices = new Map<string, string>();
    for (const plan of await listPlans(this.db)) {
      if (plan.plan_type !== 'postpaid') continue;
      const priceId = await this.provider.ensurePrice({
        lookupKey: `scrub_plan_${plan.plan_reference}_${Math.round(plan.plan_amount * 100)}`,
        productName: `Scrub ${plan.plan_name}`,
        amount: Math.round(plan.plan_amount * 100),
        currency: 'usd',
        interval: 'month',
      });
      prices.set(plan.plan_reference, priceId);
    }
    return prices;
  }
}
