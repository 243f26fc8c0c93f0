import { ApiError } from '../errors/api-error.js';
import { stripeErrors } from '../payment-provider/stripe-sdk.js';

/**
 * Runs a provider call whose failure can be the caller's doing (an unknown or foreign payment
 * method id, a card the bank refuses): those become 4xx answers naming the problem, not 500s.
 */
export async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // The SDK is loaded by the provider's first call, so an error of its own finds it loaded.
    const errors = stripeErrors();
    if (errors && error instanceof errors.StripeCardError) {
      throw new ApiError('card_declined', error.message, { decline_code: error.decline_code ?? null });
    }
    if (errors && error instanceof errors.StripeInvalidRequestError) {
      throw new ApiError('validation_failed', `The payment provider refused the request: ${error.message}`);
    }
    throw error;
  }
}
