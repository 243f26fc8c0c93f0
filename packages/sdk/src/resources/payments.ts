import { type InputOf, type PaymentMethod, type PurchaseResult, routes } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

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
}
