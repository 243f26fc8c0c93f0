import type { SubscriptionStateSchema } from '@scrub/contract';
import type { z } from 'zod';
import { requireActivePlan } from '../account/plan-status.js';
import type { Profile } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import type { SubscriptionSummary } from '../payment-provider/payment-provider.js';
import type { CardPayments, PaymentServices } from './card-payments.js';
import { authenticationRequired, refusalError } from './payment-refusals.js';
import { callProvider } from './provider-errors.js';
import { grantOf } from './purchase-grants.js';

type SubscriptionState = z.input<typeof SubscriptionStateSchema>;

function statusOf(summary: SubscriptionSummary): 'active' | 'paused' | 'past_due' | 'canceled' {
  if (summary.status === 'canceled' || summary.status === 'incomplete_expired') return 'canceled';
  if (summary.paused) return 'paused';
  return summary.status === 'active' || summary.status === 'trialing' ? 'active' : 'past_due';
}

const noSubscription = () =>
  new ApiError('not_found', 'This account has no subscription: start one with POST /subscription.');

/**
 * Monthly plans on the provider: start (first month paid and granted now), switch (from the next
 * period, no proration), pause and resume (the account's plan status follows), cancel at period end.
 * Later months are granted by the provider's `invoice.paid` webhook.
 */
export class Subscriptions {
  constructor(
    private readonly s: PaymentServices,
    private readonly cards: CardPayments,
  ) {}

  async view(profile: Profile): Promise<SubscriptionState> {
    const summary = profile.subscription_id
      ? await this.s.provider.getSubscription(profile.subscription_id)
      : null;
    if (!summary) return { subscription: null };
    const plan = await this.s.prices.planOfPrice(summary.priceId);
    return {
      subscription: {
        id: summary.id,
        plan_reference: plan?.plan_reference ?? profile.plan_reference ?? '000000',
        status: statusOf(summary),
        current_period_end: new Date(summary.currentPeriodEnd * 1000).toISOString(),
        cancel_at_period_end: summary.cancelAtPeriodEnd,
      },
    };
  }

  async start(profile: Profile, priceOrPlan: string, key: string): Promise<SubscriptionState> {
    requireActivePlan(profile);
    const current = await this.view(profile);
    if (current.subscription && current.subscription.status !== 'canceled') {
      throw new ApiError(
        'conflict',
        'This account already has a subscription: switch plans with PUT /subscription.',
      );
    }
    const customerId = await this.cards.customerWithCard(profile);
    const { plan, priceId } = await this.s.prices.subscriptionPlan(priceOrPlan);
    const result = await callProvider(() =>
      this.s.provider.subscribe({
        customerId,
        priceId,
        idempotencyKey: `scrub-${profile.id}-subscribe-${key}`,
        metadata: { scrub_profile_id: profile.id },
      }),
    );
    if (result.status === 'declined') throw refusalError(result);
    await this.s.db
      .updateTable('profiles')
      .set({
        subscription_id: result.subscription.id,
        subscription_status: result.status === 'active' ? 'active' : 'past_due',
        updated_at: new Date(),
      })
      .where('id', '=', profile.id)
      .execute();
    if (result.status === 'requires_action') {
      // As a purchase does: a single-use page to confirm on, for a caller without a browser session
      // (the CLI); `POST /payment/confirm` then says when the first month is paid and granted.
      const link = await this.s.links.issue(profile.id, 'authenticate', result.paymentIntentId);
      throw authenticationRequired(result.clientSecret, {
        paymentIntentId: result.paymentIntentId,
        nextActionUrl: link.url,
      });
    }
    const invoiceId = result.subscription.latestInvoiceId;
    if (invoiceId) {
      await this.cards.record(
        profile.email,
        grantOf(profile.id, 'subscription', plan, Math.round(plan.plan_amount * 100), invoiceId),
      );
    }
    return this.view({ ...profile, subscription_id: result.subscription.id });
  }

  async switchTo(profile: Profile, planReference: string, key: string): Promise<SubscriptionState> {
    requireActivePlan(profile);
    const id = await this.currentId(profile);
    const { priceId } = await this.s.prices.subscriptionPlan(planReference);
    await callProvider(() => this.s.provider.switchPrice(id, priceId, `scrub-${profile.id}-switch-${key}`));
    return this.view(profile);
  }

  /** Pausing stops billing and pauses the account's plan (checks answer `plan_paused`); resuming undoes both. */
  async setPaused(profile: Profile, action: 'pause' | 'resume', key: string): Promise<SubscriptionState> {
    const id = await this.currentId(profile);
    const idempotencyKey = `scrub-${profile.id}-${action}-${key}`;
    await callProvider(() =>
      action === 'pause'
        ? this.s.provider.pause(id, idempotencyKey)
        : this.s.provider.resume(id, idempotencyKey),
    );
    await this.s.db
      .updateTable('profiles')
      .set({
        subscription_status: action === 'pause' ? 'paused' : 'active',
        plan_status: action === 'pause' ? 'paused' : 'active',
        updated_at: new Date(),
      })
      .where('id', '=', profile.id)
      .execute();
    return this.view(profile);
  }

  async cancel(profile: Profile, key: string): Promise<SubscriptionState> {
    const id = await this.currentId(profile);
    await callProvider(() => this.s.provider.cancelAtPeriodEnd(id, `scrub-${profile.id}-cancel-${key}`));
    return this.view(profile);
  }

  private async currentId(profile: Profile): Promise<string> {
    const summary = profile.subscription_id
      ? await this.s.provider.getSubscription(profile.subscription_id)
      : null;
    if (!summary || statusOf(summary) === 'canceled') throw noSubscription();
    return summary.id;
  }
}
