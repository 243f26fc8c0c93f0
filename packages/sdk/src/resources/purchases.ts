import {
  type AutoTopUpSettings,
  type InputOf,
  type Purchase,
  type PurchaseConfirmation,
  type PurchaseHistoryQuery,
  type PurchaseResult,
  routes,
  type UpdateAutoTopUp,
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
 * One-off purchases of prepaid plans on the default card, and the purchase history. Refusals throw
 * `CardDeclinedError`, `AuthenticationRequiredError` (3-D Secure), `PaymentMethodRequiredError`,
 * `PlanPausedError`.
 */
export class Purchases extends APIResource {
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

  /** Purchase history, newest first: of one `year`, or one `month` of it; `per_page` rows (default 5). */
  async list(query: PurchaseHistoryQuery = {}, options?: RequestOptions): Promise<Purchase[]> {
    const { purchases } = await this.client.request(routes.listPurchases, query, options);
    return purchases;
  }

  /**
   * Auto top-up and the low-balance e-mail: the threshold, the pack bought below it, whether it
   * runs or was `stopped` by a declined card (`stopped_reason`), and the latest attempt.
   */
  getAutoTopUp(options?: RequestOptions): Promise<AutoTopUpSettings> {
    return this.client.request(routes.getAutoTopUp, {}, options);
  }

  /**
   * Sets any of them: `{ enabled: true, threshold: 1000, plan_reference, amount }` buys the pack on
   * the default card whenever a charge takes the balance below 1,000 credits (once per crossing);
   * `low_balance_threshold` e-mails instead (`null`: off). Turning it on needs a saved card
   * (`PaymentMethodRequiredError`) and restarts it after a decline.
   */
  setAutoTopUp(settings: UpdateAutoTopUp, options?: RequestOptions): Promise<AutoTopUpSettings> {
    return this.client.request(routes.setAutoTopUp, settings, options);
  }
}
