import { ApiError } from '../errors/api-error.js';
import type { Decline } from '../payment-provider/payment-provider.js';

/**
 * A refused payment, as the API answers it: the provider's reason as a plain sentence for people
 * ("Your card has insufficient funds."), the bank's code in `decline_code` for programs; nothing charged.
 */
export function refusalError(decline: Decline): ApiError {
  if (decline.code === 'payment_method_missing') {
    return new ApiError(
      'payment_method_required',
      'No card is saved for this account: add one first (POST /payment/setup, or `scrub card add`).',
    );
  }
  return new ApiError('card_declined', decline.message, { decline_code: decline.declineCode });
}

/**
 * The bank wants the customer to confirm: nothing is charged until they do, in a browser. A
 * purchase also names its payment intent and a single-use page to confirm it on, for callers
 * without a browser session (the CLI, scripts).
 */
export function authenticationRequired(
  clientSecret: string,
  payment?: { paymentIntentId: string; nextActionUrl: string },
): ApiError {
  return new ApiError(
    'authentication_required',
    payment
      ? `Your bank asks you to confirm this payment (3-D Secure): open ${payment.nextActionUrl} within 15 minutes. Nothing is charged until you do.`
      : 'Your bank asks you to confirm this payment (3-D Secure). Confirm it in the dashboard; nothing is charged until you do.',
    {
      client_secret: clientSecret,
      ...(payment
        ? { payment_intent_id: payment.paymentIntentId, next_action_url: payment.nextActionUrl }
        : {}),
    },
  );
}
