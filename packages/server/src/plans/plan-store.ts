import { isDeepStrictEqual } from 'node:util';
import type { Plan } from '@scrub/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { planCatalogue } from './catalogue.js';

/** Writes the catalogue into the plans table; plans no longer in it are kept but deactivated. */
export async function seedPlans(
  db: Kysely<Database>,
  catalogue: readonly Plan[] = planCatalogue,
): Promise<void> {
  // Most starts find the catalogue as the last one left it: one read instead of a write per plan.
  if (isDeepStrictEqual(await listPlans(db), catalogue)) return;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('plans').set({ active: false }).execute();
    for (const [index, p] of catalogue.entries()) {
      const row = {
        plan_reference: p.plan_reference,
        plan_name: p.plan_name,
        plan_subtitle: p.plan_subtitle,
        plan_type: p.plan_type,
        plan_amount: p.plan_amount,
        percent_off: p.percent_off,
        plan_credits: p.plan_credits,
        plan_credits_text: p.plan_credits_text,
        bonus_credits: p.bonus_credits,
        interval: p.interval,
        unlimited: p.unlimited,
        amount_options: JSON.stringify(p.amount_options),
        sort_order: index,
        active: true,
      };
      await trx
        .insertInto('plans')
        .values(row)
        .onConflict((oc) => oc.column('plan_reference').doUpdateSet({ ...row, updated_at: new Date() }))
        .execute();
    }
  });
}

export async function listPlans(db: Kysely<Database>): Promise<Plan[]> {
  const rows = await db
    .selectFrom('plans')
    .selectAll()
    .where('active', '=', true)
    .orderBy('sort_order')
    .execute();
  return rows.map((row) => ({
    plan_reference: row.plan_reference,
    plan_name: row.plan_name,
    plan_subtitle: row.plan_subtitle,
    plan_type: row.plan_type,
    plan_amount: row.plan_amount,
    percent_off: row.percent_off,
    plan_credits: row.plan_credits,
    plan_credits_text: row.plan_credits_text,
    bonus_credits: row.bonus_credits,
    currency: 'usd',
    interval: row.interval,
    unlimited: row.unlimited,
    variable: row.amount_options.length > 1,
    amount_options: row.amount_options,
  }));
}
