import type { Kysely } from 'kysely';
import type { WebhookEvent } from '../payment-provider/payment-provider.js';
import type { Database } from '../storage/schema.js';
import type { CardPayments, PaymentServices } from './card-payments.js';
import { chargeMetadataOf, grantOf } from './purchase-grants.js';
import type { Refunds } from './refunds.js';

type Fields = Record<string, unknown>;
const fields = (value: unknown): Fields =>
  typeof value === 'object' && value !== null ? (value as Fields) : {};
const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : typeof fields(value).id === 'string'
      ? (fields(value).id as string)
      : null;

/** The subscription an invoice bills: `parent.subscription_details` in current API versions, `subscription` before. */
function subscriptionOfInvoice(invoice: Fields): string | null {
  return idOf(fields(fields(invoice.parent).subscription_details).subscription) ?? idOf(invoice.subscription);
}

/** The price of an invoice's first line, in current (`pricing.price_details`) and older (`price`) shapes. */
function priceOfInvoice(invoice: Fields): string | null {
  const [line] = (fields(invoice.lines).data as unknown[] | undefined) ?? [];
  return (
    idOf(
      fields(fields(line).pricing).price_details && fields(fields(fields(line).pricing).price_details).price,
    ) ?? idOf(fields(line).price)
  );
}

async function profileOfSubscription(db: Kysely<Database>, subscriptionId: string) {
  return db
    .selectFrom('profiles')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
}

/**
 * What the service does with the provider's events. Every effect is keyed by the provider
 * object it comes from (a purchase per invoice or payment intent), so a redelivered event, or one
 * reporting a payment the API already recorded, adds nothing.
 */
export class WebhookEvents {
  constructor(
    private readonly s: PaymentServices,
    private readonly cards: CardPayments,
    private readonly refunds: Refunds,
  ) {}

  async handle(event: WebhookEvent): Promise<void> {
    const { db } = this.s;
    const seen = await db
      .selectFrom('payment_webhook_events')
      .select('event_id')
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (seen) return;
    const object = event.data.object as Fields;
    if (event.type === 'invoice.paid') await this.invoicePaid(object);
    else if (event.type === 'invoice.payment_failed')
      await this.setStatus(subscriptionOfInvoice(object), 'past_due');
    else if (event.type === 'payment_intent.succeeded') await this.paymentSucceeded(object);
    else if (event.type === 'customer.subscription.deleted') await this.subscriptionEnded(idOf(object));
    else if (event.type === 'charge.refunded') await this.chargeRefunded(object);
    await db
      .insertInto('payment_webhook_events')
      .values({ event_id: event.id, type: event.type })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  }

  /** A month paid: its credits (or unlimited status) are granted, once per invoice. */
  private async invoicePaid(invoice: Fields): Promise<void> {
    const subscriptionId = subscriptionOfInvoice(invoice);
    const priceId = priceOfInvoice(invoice);
    const invoiceId = idOf(invoice);
    if (!subscriptionId || !priceId || !invoiceId) return;
    const profile = await profileOfSubscription(this.s.db, subscriptionId);
    if (!profile) return;
    // A price the catalogue no longer lists (the plan's price changed since): the plan it was for.
    const plan =
      (await this.s.prices.planOfPrice(priceId)) ??
      (profile.plan_reference ? await this.s.prices.plan(profile.plan_reference).catch(() => null) : null);
    if (!plan) return;
    const amount =
      typeof invoice.amount_paid === 'number' ? invoice.amount_paid : Math.round(plan.plan_amount * 100);
    await this.cards.record(profile.email, grantOf(profile.id, 'subscription', plan, amount, invoiceId));
    await this.setStatus(subscriptionId, profile.plan_status === 'paused' ? 'paused' : 'active');
  }

  /** A one-off payment completed outside the request that started it (3-D Secure confirmed later). */
  private async paymentSucceeded(intent: Fields): Promise<void> {
    const metadata = chargeMetadataOf(intent.metadata);
    const intentId = idOf(intent);
    if (!metadata || !intentId || typeof intent.amount !== 'number') return;
    const profile = await this.s.db
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', metadata.scrub_profile_id)
      .executeTakeFirst();
    const plan = await this.s.prices.plan(metadata.scrub_plan_reference).catch(() => null);
    if (!profile || !plan) return;
    await this.cards.record(
      profile.email,
      grantOf(
        profile.id,
        metadata.scrub_kind,
        plan,
        intent.amount,
        intentId,
        metadata.scrub_auto_top_up === 'true',
      ),
    );
  }

  /** A refund, made by an admin here or in Stripe's dashboard: each of the payment's refunds counts once. */
  private async chargeRefunded(charge: Fields): Promise<void> {
    const intentId = idOf(charge.payment_intent);
    if (intentId) await this.refunds.sync(intentId);
  }

  private async setStatus(
    subscriptionId: string | null,
    status: 'active' | 'paused' | 'past_due',
  ): Promise<void> {
    if (!subscriptionId) return;
    await this.s.db
      .updateTable('profiles')
      .set({ subscription_status: status, updated_at: new Date() })
      .where('subscription_id', '=', subscriptionId)
      .execute();
  }

  /** The subscription ended (cancelled at period end): the monthly plan goes with it. */
  private async subscriptionEnded(subscriptionId: string | null): Promise<void> {
    if (!subscriptionId) return;
    await this.s.db
      .updateTable('profiles')
      .set({
        subscription_status: 'canceled',
        subscription_id: null,
        plan_reference: null,
        updated_at: new Date(),
      })
      .where('subscription_id', '=', subscriptionId)
      .where('plan_expires_at', 'is', null)
      .execute();
  }
}
