import type { AutoTopUpSettings, Plan, UpdateAutoTopUp } from '@scrub/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Profile } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import type { BalanceWatchesTable, Database } from '../storage/schema.js';
import type { CardPayments } from './card-payments.js';
import type { PlanPrices } from './plan-prices.js';
import { priceOf, requireMinimum } from './plan-pricing.js';

type Watch = Selectable<BalanceWatchesTable>;

const invalid = (path: string, message: string) =>
  new ApiError('validation_failed', message, { issues: [{ location: 'body', path, message }] });

/** An account's watch row, or the settings of an account that never set any. */
async function watchOf(db: Kysely<Database>, profileId: string): Promise<Watch> {
  const row = await db
    .selectFrom('balance_watches')
    .selectAll()
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  return (
    row ?? {
      profile_id: profileId,
      top_up_enabled: false,
      top_up_threshold: 0,
      top_up_plan_reference: null,
      top_up_amount_cents: null,
      top_up_armed: true,
      top_up_claimed_entry: null,
      top_up_stopped_reason: null,
      top_up_stopped_at: null,
      low_balance_threshold: null,
      low_balance_armed: true,
      low_balance_claimed_entry: null,
      updated_at: new Date(),
    }
  );
}

/** The pack auto top-up buys: a prepaid credit pack (not an unlimited pass), at one of its prices. */
function packPrice(plan: Plan, amountDollars: number | undefined) {
  if (plan.plan_type !== 'prepaid' || plan.unlimited) {
    throw invalid(
      'plan_reference',
      `${plan.plan_name} cannot be bought by auto top-up: choose a prepaid credit pack (GET /plans).`,
    );
  }
  const price = priceOf(plan, amountDollars);
  requireMinimum(price);
  return price;
}

/** The pack's price as set; null when the catalogue no longer sells it at that amount. */
function priceOrNull(plan: Plan, watch: Watch) {
  try {
    return priceOf(plan, amountOf(watch));
  } catch {
    return null;
  }
}

/** Reads and changes an account's auto top-up and low-balance e-mail settings. */
export class AutoTopUpSettingsStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly prices: PlanPrices,
    private readonly cards: CardPayments,
  ) {}

  async get(profileId: string): Promise<AutoTopUpSettings> {
    const watch = await watchOf(this.db, profileId);
    const plan = watch.top_up_plan_reference
      ? await this.prices.plan(watch.top_up_plan_reference).catch(() => null)
      : null;
    const price = plan ? priceOrNull(plan, watch) : null;
    const last = await this.db
      .selectFrom('auto_top_ups')
      .selectAll()
      .where('profile_id', '=', profileId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return {
      enabled: watch.top_up_enabled,
      status: watch.top_up_enabled ? 'active' : watch.top_up_stopped_reason ? 'stopped' : 'off',
      threshold: watch.top_up_threshold,
      plan_reference: watch.top_up_plan_reference,
      plan_name: plan?.plan_name ?? null,
      amount: price ? price.amountCents / 100 : null,
      credits: price ? price.credits + (plan?.bonus_credits ?? 0) : null,
      stopped_reason: watch.top_up_stopped_reason,
      stopped_at: watch.top_up_stopped_at?.toISOString() ?? null,
      low_balance_threshold: watch.low_balance_threshold,
      last_attempt: last
        ? {
            status: last.status,
            amount: last.amount_cents / 100,
            credits_added: last.credits_added,
            message: last.message,
            created_at: last.created_at.toISOString(),
          }
        : null,
    };
  }

  /**
   * Changes the settings given; the others keep their value. Turning auto top-up on needs a pack,
   * a threshold and a saved card, and restarts it after a decline; a new threshold re-arms it.
   */
  async set(profile: Profile, change: UpdateAutoTopUp): Promise<AutoTopUpSettings> {
    const watch = await watchOf(this.db, profile.id);
    const enabled = change.enabled ?? watch.top_up_enabled;
    const threshold = change.threshold ?? watch.top_up_threshold;
    const planReference = change.plan_reference ?? watch.top_up_plan_reference;
    let amountCents = watch.top_up_amount_cents;
    if (change.plan_reference !== undefined || change.amount !== undefined) {
      if (!planReference)
        throw invalid('plan_reference', 'Choose the pack to buy: plan_reference (GET /plans).');
      const plan = await this.prices.plan(planReference);
      const amount = change.amount ?? (change.plan_reference === undefined ? amountOf(watch) : undefined);
      amountCents = packPrice(plan, amount).amountCents;
    }
    if (enabled) {
      if (!planReference)
        throw invalid('plan_reference', 'Auto top-up needs the pack to buy: plan_reference (GET /plans).');
      if (threshold < 1)
        throw invalid('threshold', 'Auto top-up needs a threshold: the balance below which it buys.');
      const cards = await this.cards.listCards(profile);
      if (!cards.some((card) => card.is_default)) {
        throw new ApiError(
          'payment_method_required',
          'Auto top-up charges your default card: add a card first (POST /payment/setup, or `scrub card add`).',
        );
      }
    }
    const turnedOn = enabled && (!watch.top_up_enabled || change.enabled === true);
    const values = {
      top_up_enabled: enabled,
      top_up_threshold: threshold,
      top_up_plan_reference: planReference,
      top_up_amount_cents: amountCents,
      low_balance_threshold:
        change.low_balance_threshold === undefined
          ? watch.low_balance_threshold
          : change.low_balance_threshold,
      updated_at: new Date(),
      // Turned on (again) or a new threshold: the next look at the balance may buy at once.
      ...(turnedOn || change.threshold !== undefined
        ? { top_up_armed: true, top_up_stopped_reason: null, top_up_stopped_at: null }
        : {}),
      ...(change.low_balance_threshold !== undefined ? { low_balance_armed: true } : {}),
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('balance_watches')
        .values({ profile_id: profile.id, ...values })
        .onConflict((oc) => oc.column('profile_id').doUpdateSet(values))
        .execute();
      // The seed's own field says the same: the switch and the threshold.
      await trx
        .updateTable('profiles')
        .set({
          purchase_settings: JSON.stringify({ scrubs_amount: threshold, is_scrub_enabled: enabled }),
          updated_at: new Date(),
        })
        .where('id', '=', profile.id)
        .execute();
    });
    return this.get(profile.id);
  }
}

/** The dollars a variable pack is bought at; undefined: the pack's one price. */
export function amountOf(watch: Pick<Watch, 'top_up_amount_cents'>): number | undefined {
  return watch.top_up_amount_cents === null ? undefined : watch.top_up_amount_cents / 100;
}
