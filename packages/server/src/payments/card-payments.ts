import type {
  PaymentSetupRequest,
  Plan,
  PurchaseConfirmation,
  PurchaseRequest,
  PurchaseResult,
} from '@scrub/contract';
import type { Kysely } from 'kysely';
import { requireActivePlan } from '../account/plan-status.js';
import { getProfile, type Profile, updateProfile } from '../account/profiles.js';
import { ApiError } from '../errors/api-error.js';
import type { Mailer } from '../mail/mailer.js';
import type { ChargeResult, PaymentProvider } from '../payment-provider/payment-provider.js';
import type { Database } from '../storage/schema.js';
import type { PaymentLinks } from './payment-links.js';
import { authenticationRequired, refusalError } from './payment-refusals.js';
import type { PlanPrices } from './plan-prices.js';
import { priceOf, requireMinimum } from './plan-pricing.js';
import { callProvider } from './provider-errors.js';
import { type ChargeMetadata, chargeMetadataOf, grantOf } from './purchase-grants.js';
import { hasTakenIntro, type PurchaseGrant, recordPurchase } from './purchase-ledger.js';
import { sendReceipt } from './receipt-mail.js';

export interface PaymentServices {
  db: Kysely<Database>;
  provider: PaymentProvider;
  mailer: Mailer;
  prices: PlanPrices;
  links: PaymentLinks;
}

export interface CardView {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
}

/** Subscription states a monthly plan is still billed in: its card may not go. */
const BILLED_SUBSCRIPTIONS: ReadonlySet<string> = new Set(['active', 'past_due', 'paused']);

const notSavedCard = () =>
  new ApiError(
    'not_found',
    'This card is not one of the saved cards of this account: the default is picked among them (GET /payment-methods). Add a new card with POST /payment/setup.',
  );

/** Customers, saved cards, the $1 card verification and plan purchases, on the provider. */
export class CardPayments {
  constructor(private readonly s: PaymentServices) {}

  /** The account's payment customer, created (once, whatever races) when `create` is set. */
  async customerId(profile: Profile, create: false): Promise<string | null>;
  async customerId(profile: Profile, create: true, name?: string): Promise<string>;
  async customerId(profile: Profile, create: boolean, name?: string): Promise<string | null> {
    if (profile.payment_customer_id || !create) return profile.payment_customer_id;
    const customer = await this.s.provider.ensureCustomer({
      email: profile.email,
      ...(name ? { name } : {}),
      metadata: { scrub_profile_id: profile.id },
    });
    await this.s.db
      .updateTable('profiles')
      .set({ payment_customer_id: customer.id })
      .where('id', '=', profile.id)
      .execute();
    return customer.id;
  }

  /** The account's payment customer, to charge: without one there is no saved card to charge. */
  async customerWithCard(profile: Profile): Promise<string> {
    const customerId = await this.customerId(profile, false);
    if (!customerId)
      throw refusalError({
        status: 'declined',
        code: 'payment_method_missing',
        declineCode: null,
        message: '',
      });
    return customerId;
  }

  async listCards(profile: Profile): Promise<CardView[]> {
    const customerId = await this.customerId(profile, false);
    if (!customerId) return [];
    const { cards, defaultId } = await this.s.provider.listPaymentMethods(customerId);
    return cards.map((card) => ({
      id: card.id,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      is_default: card.id === defaultId,
    }));
  }

  /**
   * Picks the default among the saved cards, and only among them: any other id (a card never set
   * up, another customer's, a test id such as `pm_card_mastercard`) is a 404, so no card skips the
   * $1 verification, the billing address and 3-D Secure that saving a card takes.
   */
  async setDefaultCard(profile: Profile, paymentMethodId: string): Promise<CardView> {
    const customerId = await this.customerWithCard(profile);
    const { cards } = await callProvider(() => this.s.provider.listPaymentMethods(customerId));
    if (!cards.some((saved) => saved.id === paymentMethodId)) throw notSavedCard();
    const card = await callProvider(() => this.s.provider.setDefault(customerId, paymentMethodId));
    return {
      id: card.id,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      is_default: true,
    };
  }

  /**
   * Removes one of the account's saved cards; when it was the default, the newest other card becomes
   * the default. The last card stays while a monthly plan is billed to it: it would not renew.
   */
  async removeCard(profile: Profile, paymentMethodId: string): Promise<string> {
    const cards = await this.listCards(profile);
    const card = cards.find((saved) => saved.id === paymentMethodId);
    if (!card)
      throw new ApiError('not_found', 'No saved card with this id: GET /payment-methods lists yours.');
    const others = cards.filter((saved) => saved.id !== paymentMethodId);
    if (others.length === 0 && BILLED_SUBSCRIPTIONS.has(profile.subscription_status)) {
      throw new ApiError(
        'conflict',
        'This card pays for your monthly plan: add another card first, or cancel the plan.',
      );
    }
    const customerId = await this.customerWithCard(profile);
    await callProvider(() => this.s.provider.removeCard(customerId, paymentMethodId));
    const next = others[0];
    if (card.is_default && next) await callProvider(() => this.s.provider.setDefault(customerId, next.id));
    return `Card Removed Successfully: ${card.brand} ending ${card.last4}.`;
  }

  /**
   * Saves the card as the default with the billing address, then takes the seed's $1 card
   * verification once per account (500 credits plus the 200-credit bonus), then buys the plan the
   * card page was opened for, if any.
   */
  async setUp(profile: Profile, body: PaymentSetupRequest, key: string): Promise<string> {
    requireActivePlan(profile);
    // Everything that can be checked here is, before anything is made: a refusal adds nothing.
    const plan = body.reference_code ? await this.s.prices.plan(body.reference_code) : null;
    if (plan?.plan_type === 'prepaid') requireMinimum(priceOf(plan, body.amount));
    const created = profile.payment_customer_id === null;
    const customerId = await this.customerId(profile, true, body.customer_name);
    try {
      return await this.#setUpCard(profile, body, key, customerId, plan);
    } catch (error) {
      // A card refused (or the provider failing) leaves the account as it was: without a customer
      // when it had none (the provider's, found again by e-mail next time, has no card).
      if (created && !(error instanceof ApiError && error.code === 'authentication_required')) {
        await this.#forgetCustomer(profile.id, customerId);
      }
      throw error;
    }
  }

  /** Unlinks a customer made by a refused setup, unless a card was saved after all (then it stays). */
  async #forgetCustomer(profileId: string, customerId: string): Promise<void> {
    try {
      const { cards } = await this.s.provider.listPaymentMethods(customerId);
      if (cards.length > 0) return;
    } catch {
      return; // Cannot tell whether a card was saved: the customer stays, as before.
    }
    await this.s.db
      .updateTable('profiles')
      .set({ payment_customer_id: null })
      .where('id', '=', profileId)
      .where('payment_customer_id', '=', customerId)
      .execute();
  }

  async #setUpCard(
    profile: Profile,
    body: PaymentSetupRequest,
    key: string,
    customerId: string,
    plan: Plan | null,
  ): Promise<string> {
    const address = {
      line1: body.line1,
      line2: body.line2,
      city: body.city,
      state: body.state,
      postal_code: body.postal_code,
      country: body.country,
    };
    const setup = await callProvider(() =>
      this.s.provider.setupCard({
        customerId,
        paymentMethodId: body.payment_method_id,
        billingDetails: { name: body.customer_name, email: body.email ?? profile.email, address },
        idempotencyKey: `scrub-${profile.id}-setup-${key}`,
        ...(body.setup_intent_id ? { setupIntentId: body.setup_intent_id } : {}),
      }),
    );
    if (setup.status === 'requires_action') throw authenticationRequired(setup.clientSecret);
    if (setup.status === 'declined') throw refusalError(setup);
    await updateProfile(this.s.db, profile.id, { address });
    const parts = ['Card Added Successfully.'];
    const intro = await this.takeIntro(profile, customerId, setup.card.id);
    if (intro)
      parts.push(
        `Card verified: $1.00 charged, ${(intro.credits + intro.bonusCredits).toLocaleString('en-US')} credits added.`,
      );
    if (plan) {
      if (plan.plan_type === 'prepaid') {
        const bought = await this.buy(
          await getProfile(this.s.db, profile.id),
          { reference_code: plan.plan_reference, amount: body.amount, currency: 'usd' },
          key,
        );
        parts.push(bought.message);
      }
    }
    return parts.join(' ');
  }

  async buy(profile: Profile, body: PurchaseRequest, key: string): Promise<PurchaseResult> {
    requireActivePlan(profile);
    const plan = await this.s.prices.plan(body.reference_code);
    if (plan.plan_type === 'intro') {
      throw new ApiError(
        'validation_failed',
        `${plan.plan_name} comes with adding a card (POST /payment/setup).`,
      );
    }
    if (plan.plan_type === 'postpaid') {
      throw new ApiError(
        'validation_failed',
        `${plan.plan_name} is a monthly plan: subscribe with POST /subscription.`,
      );
    }
    const price = priceOf(plan, body.amount);
    requireMinimum(price);
    const customerId = await this.customerWithCard(profile);
    const grant = await this.charge(
      profile,
      plan,
      'purchase',
      price.amountCents,
      customerId,
      undefined,
      `scrub-${profile.id}-purchase-${key}`,
    );
    return {
      message: 'Payment Complete',
      purchase_id: grant.purchaseId,
      plan_reference: plan.plan_reference,
      amount: price.amountCents / 100,
      credits_added: grant.credits + grant.bonusCredits,
    };
  }

  /** The card verification, the first time a card is saved; null when the account already had it. */
  private async takeIntro(profile: Profile, customerId: string, paymentMethodId: string) {
    if (await hasTakenIntro(this.s.db, profile.id)) return null;
    const intro = (await this.s.prices.catalogue()).find((p) => p.plan_type === 'intro');
    if (!intro) return null;
    // Keyed by the card too: a later card may take the verification a declined one could not.
    const key = `scrub-${profile.id}-intro-${paymentMethodId}`;
    return this.charge(
      profile,
      intro,
      'intro',
      Math.round(intro.plan_amount * 100),
      customerId,
      paymentMethodId,
      key,
    );
  }

  /** Charges the card; only a payment that succeeded is recorded and credited, once. */
  private async charge(
    profile: Profile,
    plan: Plan,
    kind: 'intro' | 'purchase',
    amountCents: number,
    customerId: string,
    paymentMethodId: string | undefined,
    idempotencyKey: string,
  ): Promise<PurchaseGrant & { purchaseId: string }> {
    const metadata: ChargeMetadata = {
      scrub_profile_id: profile.id,
      scrub_kind: kind,
      scrub_plan_reference: plan.plan_reference,
    };
    const result: ChargeResult = await callProvider(() =>
      this.s.provider.charge({
        customerId,
        ...(paymentMethodId ? { paymentMethodId } : {}),
        amount: amountCents,
        currency: 'usd',
        description: `Scrub ${plan.plan_name}`,
        idempotencyKey,
        offSession: false,
        metadata,
      }),
    );
    if (result.status === 'requires_action') {
      const link = await this.s.links.issue(profile.id, 'authenticate', result.paymentIntentId);
      throw authenticationRequired(result.clientSecret, {
        paymentIntentId: result.paymentIntentId,
        nextActionUrl: link.url,
      });
    }
    if (result.status === 'declined') throw refusalError(result);
    const grant = grantOf(profile.id, kind, plan, amountCents, result.paymentIntentId);
    return { ...grant, purchaseId: (await this.record(profile.email, grant)).purchaseId };
  }

  /**
   * Where a payment that asked for 3-D Secure stands: paid (recorded and credited, once, as the
   * webhook would), still waiting for the customer, or refused. Only the account it was made for
   * may ask: the service issued that account the payment's confirmation link.
   */
  async confirm(profile: Profile, paymentIntentId: string): Promise<PurchaseConfirmation> {
    if (!(await this.s.links.hasPayment(profile.id, paymentIntentId))) {
      throw new ApiError(
        'not_found',
        `This account has no payment ${paymentIntentId} waiting for confirmation.`,
      );
    }
    const result = await callProvider(() => this.s.provider.getCharge(paymentIntentId));
    if (result.status === 'requires_action') {
      return {
        status: 'requires_action',
        message: 'Waiting for the payment to be confirmed with the bank (3-D Secure).',
        purchase: null,
      };
    }
    if (result.status === 'declined') {
      return {
        status: 'failed',
        message: `The payment was not completed: ${result.message} Nothing was charged.`,
        purchase: null,
      };
    }
    const metadata = chargeMetadataOf(result.metadata);
    if (!metadata) {
      const invoiceId = await callProvider(() => this.s.provider.invoiceOfPayment(paymentIntentId));
      if (invoiceId) return this.#confirmInvoice(profile, invoiceId, result.amount);
    }
    const plan = metadata ? await this.s.prices.plan(metadata.scrub_plan_reference).catch(() => null) : null;
    if (!metadata || !plan) throw new Error(`Payment ${paymentIntentId} carries no plan to credit`);
    const grant = grantOf(profile.id, metadata.scrub_kind, plan, result.amount, paymentIntentId);
    const { purchaseId } = await this.record(profile.email, grant);
    return {
      status: 'succeeded',
      message: 'Payment Complete',
      purchase: {
        message: 'Payment Complete',
        purchase_id: purchaseId,
        plan_reference: plan.plan_reference,
        amount: result.amount / 100,
        credits_added: grant.credits + grant.bonusCredits,
      },
    };
  }

  /**
   * A monthly plan's first invoice, paid once the bank confirmed: its month granted (once, as the
   * `invoice.paid` webhook would) and the subscription active.
   */
  async #confirmInvoice(profile: Profile, invoiceId: string, amount: number): Promise<PurchaseConfirmation> {
    const summary = profile.subscription_id
      ? await callProvider(() => this.s.provider.getSubscription(String(profile.subscription_id)))
      : null;
    const plan = summary ? await this.s.prices.planOfPrice(summary.priceId) : null;
    if (!plan) throw new Error(`Invoice ${invoiceId} pays no monthly plan of this account`);
    const grant = grantOf(profile.id, 'subscription', plan, amount, invoiceId);
    const { purchaseId } = await this.record(profile.email, grant);
    await this.s.db
      .updateTable('profiles')
      .set({ subscription_status: 'active', updated_at: new Date() })
      .where('id', '=', profile.id)
      .where('subscription_id', '=', summary?.id ?? '')
      .where('subscription_status', '=', 'past_due')
      .execute();
    return {
      status: 'succeeded',
      message: 'Payment Complete',
      purchase: {
        message: 'Payment Complete',
        purchase_id: purchaseId,
        plan_reference: plan.plan_reference,
        amount: amount / 100,
        credits_added: grant.credits,
      },
    };
  }

  /** Records a paid purchase (once) and sends its receipt the first time. */
  async record(email: string, grant: PurchaseGrant) {
    const recorded = await recordPurchase(this.s.db, grant);
    if (recorded.created) await sendReceipt(this.s.mailer, email, grant);
    return recorded;
  }
}
