import {
  type InputOf,
  type PaymentLink,
  type PaymentLinkView,
  type PaymentMethod,
  type PurchaseConfirmation,
  type PurchaseResult,
  routes,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { pause } from '../core/internal.js';
import { APIResource } from '../core/resource.js';

export interface WaitForConfirmationOptions extends RequestOptions {
  /** Between two asks, in milliseconds (default 2000). */
  pollInterval?: number;
  /** Called after each ask, with where the payment stands. */
  onPoll?: (state: PurchaseConfirmation) => void;
}

/**
 * The caller's payment customer and saved cards, and one-off purchases. Card numbers never pass
 * through here: a card is a payment method id made in the browser (Stripe.js, or the service's
 * stand-in in its embedded setup). Refusals throw `CardDeclinedError`,
 * `AuthenticationRequiredError` (3-D Secure), `PaymentMethodRequiredError`, `PlanPausedError`.
 */
export class Payments extends APIResource {
  async customerExists(options?: RequestOptions): Promise<boolean> {
    const { exists } = await this.client.request(routes.customerExists, {}, options);
    return exists;
  }

  /** Saved cards, the default one marked `is_default`. */
  async listMethods(options?: RequestOptions): Promise<PaymentMethod[]> {
    const { payment_methods } = await this.client.request(routes.listPaymentMethods, {}, options);
    return payment_methods;
  }

  async hasMethod(options?: RequestOptions): Promise<boolean> {
    const { exists } = await this.client.request(routes.paymentMethodExists, {}, options);
    return exists;
  }

  /**
   * Saves a card and the billing address as the default card; the first card of an account is
   * verified with a $1 charge that gives 500 credits plus a 200-credit bonus. Answers the message.
   */
  async setup(input: InputOf<typeof routes.setupPayment>, options?: RequestOptions): Promise<string> {
    const { message } = await this.client.request(routes.setupPayment, input, options);
    return message;
  }

  /** Makes a saved card the default one. */
  async setDefaultMethod(paymentMethodId: string, options?: RequestOptions): Promise<string> {
    const { message } = await this.client.request(
      routes.changePaymentMethod,
      { payment_method_id: paymentMethodId },
      options,
    );
    return message;
  }

  /**
   * Buys a prepaid plan on the default card: `amount` (dollars) for the plans sold by amount.
   * Safe to retry: the SDK sends one Idempotency-Key for all attempts, so it charges once.
   */
  buy(input: InputOf<typeof routes.purchase>, options?: RequestOptions): Promise<PurchaseResult> {
    return this.client.request(routes.purchase, input, options);
  }

  /**
   * After `buy` threw `AuthenticationRequiredError` and the customer confirmed at its
   * `nextActionUrl`: where the payment stands (`succeeded` with the purchase, credited once;
   * `requires_action` while the customer has not finished; `failed`, nothing charged).
   */
  confirm(paymentIntentId: string, options?: RequestOptions): Promise<PurchaseConfirmation> {
    return this.client.request(routes.confirmPurchase, { payment_intent_id: paymentIntentId }, options);
  }

  /**
   * `confirm` until the payment no longer waits for the customer. For a deadline, pass
   * `signal: AbortSignal.timeout(ms)` (the payment link itself lasts 15 minutes).
   */
  async waitForConfirmation(
    paymentIntentId: string,
    { pollInterval = 2_000, onPoll, ...options }: WaitForConfirmationOptions = {},
  ): Promise<PurchaseConfirmation> {
    for (;;) {
      const state = await this.confirm(paymentIntentId, options);
      onPoll?.(state);
      if (state.status !== 'requires_action') return state;
      await this.client[pause](pollInterval, options.signal);
    }
  }

  /**
   * A single-use link (15 minutes) to the dashboard's card page that adds a card to this account
   * without signing in there: for a CLI or a script to hand to a browser.
   */
  createCardLink(options?: RequestOptions): Promise<PaymentLink> {
    return this.client.request(routes.createCardLink, {}, options);
  }

  /** What a payment link (its `grant`) is for; no credentials needed, the link is one. */
  getLink(grant: string, options?: RequestOptions): Promise<PaymentLinkView> {
    return this.client.request(routes.getPaymentLink, { grant }, options);
  }

  /** `setup`, on the account a card link was made for; the link then stops working. */
  async setupWithLink(
    grant: string,
    input: Omit<InputOf<typeof routes.setupPaymentWithLink>, 'grant'>,
    options?: RequestOptions,
  ): Promise<string> {
    const { message } = await this.client.request(routes.setupPaymentWithLink, { ...input, grant }, options);
    return message;
  }
}
