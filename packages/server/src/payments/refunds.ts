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
 * Refunds of purchases: an admin's, through the provider, and those the provider reports
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
    if (purchase.kind === 'subscription') {
      throw new ApiError(
        'conflict',
        'A monthly plan invoice is refunded in the payment provider’s dashboard; its refund is then recorded here.',
      );
    }
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
        paymentIntentId: purchase.provider_object_id,
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

  /** Records the refunds of this payment the service has not seen yet (a `charge.refunded` event). */
  async sync(paymentIntentId: string): Promise<void> {
    const purchase = await this.s.db
      .selectFrom('purchases')
      .select('id')
      .where('provider_object_id', '=', paymentIntentId)
      .executeTakeFirst();
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
