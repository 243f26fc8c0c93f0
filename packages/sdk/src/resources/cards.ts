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
import { APIResource } from '../core/resource.js';
import type { WaitForConfirmationOptions } from './purchases.js';

/**
 * The caller's payment customer and saved cards. Card numbers never pass through here: a card is a
 * payment method id made in the browser (Stripe.js, or the service's stand-in in its embedded
 * setup). Refusals throw `CardDeclinedError`, `AuthenticationRequiredError` (3-D Secure).
 */
export class Cards extends APIResource {
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
   * Removes a saved card; when it was the default, the newest other card becomes the default. The
   * last card stays while a monthly plan is billed to it (`ConflictError`). Answers the message.
   */
  async removeMethod(paymentMethodId: string, options?: RequestOptions): Promise<string> {
    const { message } = await this.client.request(
      routes.removePaymentMethod,
      { payment_method_id: paymentMethodId },
      options,
    );
    return message;
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

/**
 * @deprecated `scrub.payments` is `scrub.cards`, with the purchase calls of `scrub.purchases`
 * (`buy`, `confirm`, `waitForConfirmation`) kept on it for existing code.
 */
export class Payments extends Cards {
  /** @deprecated Use `scrub.purchases.buy()`. */
  buy(input: InputOf<typeof routes.purchase>, options?: RequestOptions): Promise<PurchaseResult> {
    return this.client.purchases.buy(input, options);
  }

  /** @deprecated Use `scrub.purchases.confirm()`. */
  confirm(paymentIntentId: string, options?: RequestOptions): Promise<PurchaseConfirmation> {
    return this.client.purchases.confirm(paymentIntentId, options);
  }

  /** @deprecated Use `scrub.purchases.waitForConfirmation()`. */
  waitForConfirmation(
    paymentIntentId: string,
    options?: WaitForConfirmationOptions,
  ): Promise<PurchaseConfirmation> {
    return this.client.purchases.waitForConfirmation(paymentIntentId, options);
  }
}
