import { queryClient } from '../api/query-client';
import { sessionKey } from '../auth/use-session';
import { creditEvent } from '../credits/credit-events';
import { accountKeys } from '../data/account';
import { cardsKeys } from '../data/cards';
import { purchasesKeys } from '../data/purchases';
import { subscriptionKeys } from '../data/subscriptions';
import { MODAL_CLOSE_DELAY_MS } from './confirm-action';

/** Dispatched on `window` after each purchase: anything showing credits or plans can listen. */
export const PURCHASE_COMPLETE_EVENT = 'scrub:purchase-complete';

export interface PurchaseCompleteDetail {
  plan_reference: string;
  amount: number;
  /** Null when the bank's confirmation came back and the provider's event is still crediting it. */
  credits_added: number | null;
}

/** Refreshes what a payment changed: the balance (a credit event), the account, cards, subscription, history. */
export function refreshAfterPayment(): void {
  creditEvent();
  for (const key of [
    accountKeys.account,
    sessionKey,
    cardsKeys.cards,
    subscriptionKeys.subscription,
    purchasesKeys.all,
  ]) {
    void queryClient.invalidateQueries({ queryKey: key });
  }
}

/**
 * The seeds' purchase-complete flow: user info and session refreshed, a purchase-complete event
 * with the plan, amount and credits added, then AccountInfo after 500 ms.
 */
export function purchaseComplete(detail: PurchaseCompleteDetail, navigate: (to: string) => void): void {
  refreshAfterPayment();
  window.dispatchEvent(new CustomEvent(PURCHASE_COMPLETE_EVENT, { detail }));
  setTimeout(() => navigate('/accountInfo'), MODAL_CLOSE_DELAY_MS);
}
