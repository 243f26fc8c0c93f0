import type { Plan } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const planTypes = ['prepaid', 'postpaid', 'intro'] as const satisfies readonly Plan['plan_type'][];

const PlansOptionsSchema = z.object({
  type: z
    .enum(planTypes, {
      error: (issue) => `--type must be one of ${planTypes.join(', ')} (got "${String(issue.input)}")`,
    })
    .optional(),
});

function dollars(amount: number): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount);
}

/** "$49/month" for a fixed price; "$5 – $100" for a plan that lets the customer pick the amount. */
export function formatPrice(plan: Plan): string {
  const amounts = plan.amount_options.map((option) => option.amount);
  const price = plan.variable
    ? `${dollars(Math.min(...amounts))} – ${dollars(Math.max(...amounts))}`
    : dollars(plan.plan_amount);
  return plan.interval ? `${price}/${plan.interval}` : price;
}

const TABLE_HEAD = ['Reference', 'Name', 'Type', 'Price', 'Credits', 'Unlimited'];

function planCells(plan: Plan): string[] {
  return [
    plan.plan_reference,
    plan.plan_name,
    plan.plan_type,
    formatPrice(plan),
    plan.plan_credits_text,
    plan.unlimited ? 'yes' : 'no',
  ];
}

export async function plans(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(PlansOptionsSchema, rawOptions);
  const output = await context.output();
  const scrub = await context.client();
  const all = await scrub.plans.list();
  const selected = options.type ? all.filter((plan) => plan.plan_type === options.type) : all;
  const { stdout } = context.io;
  if (output === 'json') stdout.write(`${JSON.stringify(selected, null, 2)}\n`);
  else stdout.write(`${await renderTable(TABLE_HEAD, selected.map(planCells), useColor(context.io))}\n`);
}
