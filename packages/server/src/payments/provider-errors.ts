import Stripe from 'stripe';
import { ApiError } from '../http/api-error.js';

/**
 * Runs a provider call whose failure can be the caller's doing (an unknown or foreign payment
 * method id, a card the bank refuses): those become 4xx answers naming the problem, not 500s.
 */
export async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      throw new ApiError('card_declined', error.message, { decline_code: error.decline_code ?? null });
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      throw new ApiError('validation_failed', `The payment provider refused the request: ${error.message}`);
    }
    throw error;
  }
}
