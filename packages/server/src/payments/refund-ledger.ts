import type { Kysely } from 'kysely';
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
    if (input.admin) await auditRefund(trx, input, input.admin, purchase, { creditsTaken, creditsShortfall });
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

/** An admin's refund in the audit log. */
async function auditRefund(
  trx: Kysely<Database>,
  input: RefundRecordInput,
  admin: NonNullable<RefundRecordInput['admin']>,
  purchase: LockedPurchase,
  { creditsTaken, creditsShortfall }: { creditsTaken: number; creditsShortfall: number },
): Promise<void> {
  await recordAudit(trx, {
    actor: admin,
    subject: { profileId: purchase.profile_id, email: purchase.email },
    action: 'purchase.refund',
    detail: {
      purchase_id: purchase.id,
      refund_id: input.providerRefundId,
      amount: input.amountCents / 100,
      reason: input.reason,
      credits_taken: creditsTaken,
      credits_shortfall: creditsShortfall,
    },
    requestId: input.requestId,
  });
}
