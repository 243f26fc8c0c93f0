import { type Kysely, type Selectable, sql } from 'kysely';
import type { Logger } from 'pino';
import { getProfile, hasUnlimited } from '../account/profiles.js';
import type { AutoTopUpsTable, Database } from '../storage/schema.js';
import { amountOf } from './auto-top-up-settings.js';
import { sendLowBalanceMail, sendTopUpDeclinedMail } from './balance-mail.js';
import type { CardPayments, PaymentServices } from './card-payments.js';
import { priceOf } from './plan-pricing.js';
import { grantOf } from './purchase-grants.js';

type Attempt = Selectable<AutoTopUpsTable>;

/** How soon after a charge the account's balance is looked at: charges close together share one look. */
const NUDGE_DELAY_MS = 200;
/** How long a top-up's charge may take before it is left to the sweep to finish. */
const CHARGE_DEADLINE_MS = 60_000;
/** A pending attempt this old was cut short (a crash, a deadline): the sweep finishes it, same key. */
const STALE_PENDING_MS = 2 * CHARGE_DEADLINE_MS;

const AUTHENTICATION_MESSAGE =
  'Your bank asks you to confirm each payment with this card (3-D Secure), which cannot be done while you are away, so auto top-up cannot use it. Buy credits on the Purchase page, or add another card.';

export interface BalanceWatchOptions {
  services: PaymentServices;
  cards: CardPayments;
  /** Where the dashboard is, for the e-mails' links. */
  publicUrl: () => string;
  logger: Logger | false;
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the payment provider in ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Acts on accounts' balances after charges: auto top-up and the low-balance e-mail. A charge
 * nudges its account (looked at shortly after, off the request's path); a sweep looks at every
 * watched account now and then (bulk jobs, other processes) and finishes top-ups cut short.
 *
 * Each crossing below a threshold is claimed in the database (`balance_watches`: the armed flag
 * turned off by one UPDATE; `auto_top_ups`: one pending attempt per account), so it charges or
 * e-mails once whatever the number of checks, looks and processes; the balance back at the
 * threshold re-arms it. The charge runs after the claim commits, keyed by the attempt: a retry
 * of it never charges twice. A declined card stops auto top-up until the customer turns it on.
 */
export class BalanceWatch {
  #timer: NodeJS.Timeout | undefined;
  readonly #nudged = new Map<string, NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  #closed = false;

  constructor(private readonly options: BalanceWatchOptions) {}

  private get db(): Kysely<Database> {
    return this.options.services.db;
  }

  /** Sweeps every `everyMs` (the processes that run the bulk worker). */
  start(everyMs: number): void {
    this.#timer = setInterval(() => this.#track(this.sweep()), everyMs);
    this.#timer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const timer of this.#nudged.values()) clearTimeout(timer);
    this.#nudged.clear();
    await this.settled();
  }

  /** Resolves when the looks started so far are done (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#nudged.size > 0) {
      await Promise.all([...this.#inFlight]);
      if (this.#nudged.size > 0) await new Promise((resolve) => setTimeout(resolve, NUDGE_DELAY_MS));
    }
  }

  /** After a charge: the account is looked at shortly, once for all the charges until then. */
  nudge(profileId: string): void {
    if (this.#closed || this.#nudged.has(profileId)) return;
    const timer = setTimeout(() => {
      this.#nudged.delete(profileId);
      this.#track(this.check(profileId));
    }, NUDGE_DELAY_MS);
    timer.unref();
    this.#nudged.set(profileId, timer);
  }

  #track(look: Promise<void>): void {
    const tracked = look.catch((error: unknown) => {
      const { logger } = this.options;
      if (logger)
        logger.warn({ err: error }, 'could not act on an account balance; the next look tries again');
    });
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  /** Every watched account below a threshold, and the top-ups cut short. */
  async sweep(): Promise<void> {
    await this.#rearm(null);
    const due = await this.db
      .selectFrom('balance_watches as w')
      .innerJoin('profiles as p', 'p.id', 'w.profile_id')
      .select('w.profile_id')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('w.top_up_enabled', '=', true),
            eb('w.top_up_armed', '=', true),
            eb('p.credits', '<', eb.ref('w.top_up_threshold')),
          ]),
          eb.and([
            eb('w.low_balance_armed', '=', true),
            eb('p.credits', '<', eb.ref('w.low_balance_threshold')),
          ]),
        ]),
      )
      .limit(500)
      .execute();
    for (const { profile_id } of due) await this.check(profile_id);
    const stale = await this.db
      .selectFrom('auto_top_ups')
      .selectAll()
      .where('status', '=', 'pending')
      .where('created_at', '<', new Date(Date.now() - STALE_PENDING_MS))
      .limit(100)
      .execute();
    for (const attempt of stale) await this.#charge(attempt);
  }

  /** One account: re-armed above its thresholds, e-mailed and topped up below them. */
  async check(profileId: string): Promise<void> {
    const watched = await this.db
      .selectFrom('balance_watches')
      .select('profile_id')
      .where('profile_id', '=', profileId)
      .executeTakeFirst();
    if (!watched) return;
    await this.#rearm(profileId);
    await this.#lowBalance(profileId);
    const attempt = await this.#claimTopUp(profileId);
    if (attempt) await this.#charge(attempt);
  }

  /**
   * Alerts whose balance is back at the threshold, now or in any ledger entry since the crossing
   * was claimed, are armed again (all accounts, or one).
   */
  async #rearm(profileId: string | null): Promise<void> {
    const one = profileId === null ? sql`` : sql`and w.profile_id = ${profileId}`;
    await sql`update balance_watches w set top_up_armed = true, updated_at = now()
      from profiles p
      where p.id = w.profile_id and not w.top_up_armed
        and (p.credits >= w.top_up_threshold or exists (select 1 from credit_ledger l
          where l.profile_id = w.profile_id and l.id > coalesce(w.top_up_claimed_entry, 0)
            and l.balance_after >= w.top_up_threshold))
        and not exists (select 1 from auto_top_ups a where a.profile_id = w.profile_id and a.status = 'pending') ${one}`.execute(
      this.db,
    );
    await sql`update balance_watches w set low_balance_armed = true, updated_at = now()
      from profiles p
      where p.id = w.profile_id and not w.low_balance_armed
        and (w.low_balance_threshold is null or p.credits >= w.low_balance_threshold
          or exists (select 1 from credit_ledger l
            where l.profile_id = w.profile_id and l.id > coalesce(w.low_balance_claimed_entry, 0)
              and l.balance_after >= w.low_balance_threshold)) ${one}`.execute(this.db);
  }

  async #lowBalance(profileId: string): Promise<void> {
    const { rows } = await sql<{ credits: number; threshold: number; email: string }>`
      update balance_watches w set low_balance_armed = false, updated_at = now(),
        low_balance_claimed_entry = (select max(l.id) from credit_ledger l where l.profile_id = w.profile_id)
      from profiles p
      where p.id = w.profile_id and w.profile_id = ${profileId} and w.low_balance_armed
        and p.credits < w.low_balance_threshold
      returning p.credits, w.low_balance_threshold as threshold, p.email`.execute(this.db);
    const crossed = rows[0];
    if (!crossed) return;
    const { services, publicUrl } = this.options;
    await sendLowBalanceMail(services.mailer, crossed.email, crossed.credits, crossed.threshold, publicUrl());
  }

  /** Claims the crossing (once) and records the attempt, in one transaction; null: nothing to buy. */
  async #claimTopUp(profileId: string): Promise<Attempt | null> {
    const profile = await getProfile(this.db, profileId);
    if (profile.plan_status !== 'active' || hasUnlimited(profile)) return null;
    const watch = await this.db
      .selectFrom('balance_watches')
      .select(['top_up_plan_reference', 'top_up_amount_cents'])
      .where('profile_id', '=', profileId)
      .executeTakeFirst();
    const reference = watch?.top_up_plan_reference;
    if (!watch || !reference) return null;
    // Read before the transaction: the embedded database has one connection.
    const plan = await this.options.services.prices.plan(reference);
    const price = priceOf(plan, amountOf(watch));
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ credits: number }>`
        update balance_watches w set top_up_armed = false, updated_at = now(),
          top_up_claimed_entry = (select max(l.id) from credit_ledger l where l.profile_id = w.profile_id)
        from profiles p
        where p.id = w.profile_id and w.profile_id = ${profileId} and w.top_up_enabled and w.top_up_armed
          and w.top_up_plan_reference = ${reference} and p.credits < w.top_up_threshold
        returning p.credits`.execute(trx);
      const claimed = rows[0];
      if (!claimed) return null;
      const attempt = await trx
        .insertInto('auto_top_ups')
        .values({
          profile_id: profileId,
          status: 'pending',
          plan_reference: plan.plan_reference,
          amount_cents: price.amountCents,
          balance_before: claimed.credits,
        })
        .onConflict((oc) => oc.column('profile_id').where('status', '=', 'pending').doNothing())
        .returningAll()
        .executeTakeFirst();
      return attempt ?? null;
    });
  }

  /** Charges the default card off-session for the attempt, keyed by it, and settles the attempt. */
  async #charge(attempt: Attempt): Promise<void> {
    const { services, cards } = this.options;
    const profile = await getProfile(this.db, attempt.profile_id);
    const plan = await services.prices.plan(attempt.plan_reference);
    if (!profile.payment_customer_id) {
      await this.#declined(attempt, plan.plan_name, 'No card is saved for this account.');
      return;
    }
    const customerId = profile.payment_customer_id;
    const result = await withDeadline(
      services.provider.charge({
        customerId,
        amount: attempt.amount_cents,
        currency: 'usd',
        description: `Scrub auto top-up: ${plan.plan_name}`,
        idempotencyKey: `scrub-${profile.id}-auto-top-up-${attempt.id}`,
        offSession: true,
        metadata: {
          scrub_profile_id: profile.id,
          scrub_kind: 'purchase',
          scrub_plan_reference: plan.plan_reference,
          scrub_auto_top_up: 'true',
        },
      }),
      CHARGE_DEADLINE_MS,
    );
    if (result.status === 'requires_action') {
      await this.#declined(attempt, plan.plan_name, AUTHENTICATION_MESSAGE);
      return;
    }
    if (result.status === 'declined') {
      const message = result.code === 'authentication_required' ? AUTHENTICATION_MESSAGE : result.message;
      await this.#declined(attempt, plan.plan_name, message);
      return;
    }
    const grant = grantOf(profile.id, 'purchase', plan, result.amount, result.paymentIntentId, true);
    const { purchaseId } = await cards.record(profile.email, grant);
    await this.db
      .updateTable('auto_top_ups')
      .set({
        status: 'succeeded',
        purchase_id: purchaseId,
        credits_added: grant.credits + grant.bonusCredits,
        message: `Auto top-up: ${plan.plan_name}, $${(result.amount / 100).toFixed(2)}`,
        finished_at: new Date(),
      })
      .where('id', '=', attempt.id)
      .where('status', '=', 'pending')
      .execute();
    // The balance may already be back above the threshold: armed for the next crossing.
    await this.#rearm(profile.id);
  }

  /** A refused card: the attempt fails, auto top-up stops until turned on again, and the customer is told. */
  async #declined(attempt: Attempt, planName: string, reason: string): Promise<void> {
    const settled = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('auto_top_ups')
        .set({ status: 'declined', message: reason, finished_at: new Date() })
        .where('id', '=', attempt.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!row) return false;
      await trx
        .updateTable('balance_watches')
        .set({
          top_up_enabled: false,
          top_up_stopped_reason: reason,
          top_up_stopped_at: new Date(),
          updated_at: new Date(),
        })
        .where('profile_id', '=', attempt.profile_id)
        .execute();
      await trx
        .updateTable('profiles')
        .set({ purchase_settings: sql`jsonb_set(purchase_settings, '{is_scrub_enabled}', 'false')` })
        .where('id', '=', attempt.profile_id)
        .execute();
      return true;
    });
    if (!settled) return;
    const { services, publicUrl } = this.options;
    const profile = await getProfile(this.db, attempt.profile_id);
    await sendTopUpDeclinedMail(
      services.mailer,
      profile.email,
      planName,
      attempt.amount_cents,
      reason,
      publicUrl(),
    );
  }
}
