import type { Plan, Scrub } from '@scrub/sdk';
import { UsageError } from './errors.js';

/** A plan named by its reference or its name (any case), as `scrub plans` lists them. */
export async function findPlan(scrub: Scrub, wanted: string): Promise<Plan> {
  const plans = await scrub.plans.list();
  const key = wanted.trim().toLowerCase();
  const plan = plans.find((p) => p.plan_reference === key || p.plan_name.toLowerCase() === key);
  if (!plan) {
    throw new UsageError(
      `No plan "${wanted}": use a reference or a name from scrub plans (${plans.map((p) => p.plan_name).join(', ')})`,
    );
  }
  return plan;
}
