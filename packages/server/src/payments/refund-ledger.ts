import { type Kysely, sql } from 'kysely';
import { applyLedgerEntry } from '../account/ledger.js';
import { recordAudit } from '../admin/audit-log.js';
import type { Database } from '../storage/schema.js';

export interface RefundRecordInput {
  purchaseId: string;
  /** The provider's refund (`re_...`): one row per refund, whoever reports it first. */
  providerRefundId: string;
  amountCents: number;
  reason: string;
  admin: { profileId: string; email: string } | null;
  requestId: string | null;
}

export interface PassTaken {
  days: number;
  ended: boolean;
}

export interface RecordedRefund {
  refundId: string;
  profileId: string;
  email: string;
  planName: string;
  amountCents: number;
  refundedCents: number;
  purchaseCents: number;
  reason: string;
  creditsDue: number;
  creditsTaken: number;
  creditsShortfall: number;
  /** The account's balance afterwards. */
  balance: number;
  /** The unlimited pass this refund took days off, and whether that ended it (back on no plan). */
  pass: PassTaken | null;
  /** False when this refund was recorded before (the webhook and the admin's call both report it). */
  created: boolean;
}

/**
 * Records a refund and takes its credits back, in one transaction, once per provider refund.
 *
 * The rule: a purchase's credits (bonus included) are taken back in proportion to the money
 * refunded, counted over all its refunds (so two half refunds take back what one full refund
 * would), but never below a zero balance: what the customer already spent stays spent, and the
 * refund row records it as the shortfall. Nothing is owed later; the shortfall is for the admin.
 * A pass refunded in full ends (`endPass`). Each refund is audited, an admin's or the provider's.
 */
export async function recordRefund(db: Kysely<Database>, input: RefundRecordInput): Promise<RecordedRefund> {
  return db.transaction().execute(async (trx) => {
    const purchase = await lockPurchase(trx, input.purchaseId);
    const existing = await trx
      .selectFrom('refunds')
      .selectAll()
      .where('provider_refund_id', '=', input.providerRefundId)
      .executeTakeFirst();
    const base = {
      profileId: purchase.profile_id,
      email: purchase.email,
      planName: purchase.plan_name,
      purchaseCents: purchase.amount_cents,
    };
    if (existing) {
      return {
        ...base,
        refundId: existing.provider_refund_id,
        amountCents: existing.amount_cents,
        refundedCents: purchase.refunded_cents,
        reason: existing.reason,
        creditsDue: existing.credits_due,
        creditsTaken: existing.credits_taken,
        creditsShortfall: existing.credits_shortfall,
        balance: purchase.balance,
        pass: null,
        created: false,
      };
    }
    const refundedCents = Math.min(purchase.amount_cents, purchase.refunded_cents + input.amountCents);
    const creditsDue = await creditsDueFor(trx, purchase, refundedCents);
    let balance = purchase.balance;
    const creditsTaken = Math.min(creditsDue, balance);
    if (creditsTaken > 0) {
      const entry = await applyLedgerEntry(trx, {
        profileId: purchase.profile_id,
        delta: -creditsTaken,
        kind: 'refund',
        reference: input.providerRefundId,
        note: `Refund of ${purchase.plan_name}: $${(input.amountCents / 100).toFixed(2)}`,
      });
      balance = entry.balance;
    }
    const creditsShortfall = creditsDue - creditsTaken;
    const pass = refundedCents >= purchase.amount_cents ? await endPass(trx, purchase) : null;
    await trx
      .insertInto('refunds')
      .values({
        purchase_id: purchase.id,
        provider_refund_id: input.providerRefundId,
        amount_cents: input.amountCents,
        reason: input.reason,
        admin_id: input.admin?.profileId ?? null,
        admin_email: input.admin?.email ?? null,
        credits_due: creditsDue,
        credits_taken: creditsTaken,
        credits_shortfall: creditsShortfall,
      })
      .execute();
    await trx
      .updateTable('purchases')
      .set({ refunded_cents: refundedCents })
      .where('id', '=', purchase.id)
      .execute();
    await auditRefund(trx, input, purchase, { creditsTaken, creditsShortfall, pass });
    return {
      ...base,
      refundId: input.providerRefundId,
      amountCents: input.amountCents,
      refundedCents,
      reason: input.reason,
      creditsDue,
      creditsTaken,
      creditsShortfall,
      balance,
      pass,
      created: true,
    };
  });
}

/** The purchase and its account's balance, locked until the refund is recorded. */
function lockPurchase(trx: Kysely<Database>, purchaseId: string) {
  return trx
    .selectFrom('purchases')
    .innerJoin('profiles', 'profiles.id', 'purchases.profile_id')
    .select([
      'purchases.id',
      'purchases.profile_id',
      'purchases.kind',
      'purchases.plan_reference',
      'purchases.plan_name',
      'purchases.amount_cents',
      'purchases.credits',
      'purchases.bonus_credits',
      'purchases.refunded_cents',
      'profiles.email',
      'profiles.credits as balance',
    ])
    .where('purchases.id', '=', purchaseId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

type LockedPurchase = Awaited<ReturnType<typeof lockPurchase>>;

/** The credits this refund takes back: the purchase's share for all the money refunded, less earlier refunds'. */
async function creditsDueFor(
  trx: Kysely<Database>,
  purchase: LockedPurchase,
  refundedCents: number,
): Promise<number> {
  const granted = purchase.credits + purchase.bonus_credits;
  const { due: dueBefore } = await trx
    .selectFrom('refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('credits_due'), eb.lit(0)).as('due'))
    .where('purchase_id', '=', purchase.id)
    .executeTakeFirstOrThrow();
  const dueTotal =
    purchase.amount_cents > 0 ? Math.round((granted * refundedCents) / purchase.amount_cents) : 0;
  return Math.max(0, dueTotal - Number(dueBefore));
}

/**
 * A pass refunded in full ends at once: its days come off the account's pass (a pass bought on top
 * of another keeps the other's days), and when none are left the account is back on no plan.
 * Null when the account no longer held this pass; a monthly plan's invoice ends nothing.
 */
async function endPass(trx: Kysely<Database>, purchase: LockedPurchase): Promise<PassTaken | null> {
  if (purchase.kind !== 'purchase') return null;
  const plan = await trx
    .selectFrom('plans')
    .select(['unlimited', 'amount_options'])
    .where('plan_reference', '=', purchase.plan_reference)
    .executeTakeFirst();
  const days = plan?.unlimited
    ? plan.amount_options.find((o) => Math.round(o.amount * 100) === purchase.amount_cents)?.unlimited_days
    : null;
  if (!days) return null;
  const now = new Date();
  const shortened = await trx
    .updateTable('profiles')
    .set({
      plan_expires_at: sql<Date>`plan_expires_at - make_interval(days => ${days})`,
      updated_at: now,
    })
    .where('id', '=', purchase.profile_id)
    .where('plan_reference', '=', purchase.plan_reference)
    .where('plan_expires_at', '>', now)
    .returning('plan_expires_at')
    .executeTakeFirst();
  if (!shortened) return null;
  if (shortened.plan_expires_at && shortened.plan_expires_at > now) return { days, ended: false };
  await trx
    .updateTable('profiles')
    .set({ plan_reference: null, plan_expires_at: null, updated_at: now })
    .where('id', '=', purchase.profile_id)
    .execute();
  return { days, ended: true };
}

/** The auditor: the admin who refunded, or the payment provider for a refund made in its dashboard. */
const PROVIDER_ACTOR = { profileId: null, email: 'payment provider' };

/** Every refund in the audit log, saying who made it: an admin here, or the provider's dashboard. */
async function auditRefund(
  trx: Kysely<Database>,
  input: RefundRecordInput,
  purchase: LockedPurchase,
  outcome: { creditsTaken: number; creditsShortfall: number; pass: PassTaken | null },
): Promise<void> {
  await recordAudit(trx, {
    actor: input.admin ?? PROVIDER_ACTOR,
    subject: { profileId: purchase.profile_id, email: purchase.email },
    action: 'purchase.refund',
    detail: {
      source: input.admin ? 'admin' : 'payment_provider',
      purchase_id: purchase.id,
      refund_id: input.providerRefundId,
      amount: input.amountCents / 100,
      reason: input.reason,
      credits_taken: outcome.creditsTaken,
      credits_shortfall: outcome.creditsShortfall,
      ...(outcome.pass ? { pass_days_taken: outcome.pass.days, pass_ended: outcome.pass.ended } : {}),
    },
    requestId: input.requestId,
  });
}
