import type { Kysely } from 'kysely';
import type { Profile } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import type { RefundSummary } from '../payment-provider/payment-provider.js';
import type { Database } from '../storage/schema.js';
import type { PaymentServices } from './card-payments.js';
import { callProvider } from './provider-errors.js';
import { type RecordedRefund, recordRefund } from './refund-ledger.js';
import { sendRefundReceipt } from './refund-mail.js';

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

async function purchaseOf(db: Kysely<Database>, profileId: string, purchaseId: string) {
  const purchase = await db
    .selectFrom('purchases')
    .selectAll()
    .where('id', '=', purchaseId)
    .where('profile_id', '=', profileId)
    .executeTakeFirst();
  if (!purchase) throw new ApiError('not_found', `This account has no purchase ${purchaseId}.`);
  return purchase;
}

/** What a refund made at the provider says about who made it and why (our own refunds carry it). */
function originOf(refund: RefundSummary) {
  const m = refund.metadata;
  const admin =
    m.scrub_admin_id && m.scrub_admin_email
      ? { profileId: m.scrub_admin_id, email: m.scrub_admin_email }
      : null;
  return { admin, reason: m.scrub_reason || 'Refunded in the payment provider’s dashboard' };
}

/**
 * Refunds of purchases and monthly plans' invoices: an admin's, through the provider, and those the provider reports
 * (`charge.refunded`, a refund made in Stripe's dashboard). Both record through `recordRefund`,
 * keyed by the provider's refund id, so each refund counts once whoever reports it first.
 */
export class Refunds {
  constructor(private readonly s: PaymentServices) {}

  async refund(
    call: { actor: { profileId: string; email: string }; requestId: string },
    target: Profile,
    purchaseId: string,
    input: { amount?: number | undefined; reason: string },
    key: string,
  ): Promise<RecordedRefund> {
    const purchase = await purchaseOf(this.s.db, target.id, purchaseId);
    const paymentIntentId = await this.paymentOf(purchase);
    const left = purchase.amount_cents - purchase.refunded_cents;
    if (left <= 0) throw new ApiError('conflict', 'This purchase was already refunded in full.');
    const amountCents = input.amount === undefined ? left : Math.round(input.amount * 100);
    if (amountCents > left) {
      throw new ApiError(
        'validation_failed',
        `A refund of ${money(amountCents)} is more than the ${money(left)} left to refund on this purchase.`,
        { issues: [{ location: 'body', path: 'amount', message: `at most ${left / 100}` }] },
      );
    }
    const refund = await callProvider(() =>
      this.s.provider.refund({
        paymentIntentId,
        amount: amountCents,
        idempotencyKey: `scrub-refund-${purchase.id}-${key}`,
        metadata: {
          scrub_purchase_id: purchase.id,
          scrub_reason: input.reason.slice(0, 500),
          scrub_admin_id: call.actor.profileId,
          scrub_admin_email: call.actor.email,
        },
      }),
    );
    return this.record(purchase.id, refund, call.requestId);
  }

  /** The payment to refund: the purchase's own, or for a monthly plan's invoice, the one that paid it. */
  private async paymentOf(purchase: { kind: string; provider_object_id: string }): Promise<string> {
    if (purchase.kind !== 'subscription') return purchase.provider_object_id;
    const paid = await callProvider(() => this.s.provider.paymentOfInvoice(purchase.provider_object_id));
    if (!paid) throw new ApiError('conflict', 'This invoice has no payment to refund.');
    return paid;
  }

  /**
   * Records the refunds of this payment the service has not seen yet (a `charge.refunded` event):
   * of a purchase paid by this payment, or of the monthly plan's invoice it paid.
   */
  async sync(paymentIntentId: string): Promise<void> {
    const purchaseBy = (providerObjectId: string) =>
      this.s.db
        .selectFrom('purchases')
        .select('id')
        .where('provider_object_id', '=', providerObjectId)
        .executeTakeFirst();
    let purchase = await purchaseBy(paymentIntentId);
    if (!purchase) {
      const invoiceId = await this.s.provider.invoiceOfPayment(paymentIntentId);
      if (invoiceId) purchase = await purchaseBy(invoiceId);
    }
    if (!purchase) return;
    for (const refund of await this.s.provider.listRefunds(paymentIntentId)) {
      if (refund.status === 'succeeded') await this.record(purchase.id, refund, null);
    }
  }

  private async record(purchaseId: string, refund: RefundSummary, requestId: string | null) {
    const recorded = await recordRefund(this.s.db, {
      purchaseId,
      providerRefundId: refund.id,
      amountCents: refund.amount,
      ...originOf(refund),
      requestId,
    });
    if (recorded.created) await sendRefundReceipt(this.s.mailer, recorded);
    return recorded;
  }
}
