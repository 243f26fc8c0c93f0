import { AuthenticationRequiredError } from '@scrub/sdk';
import { loadPaymentsJs } from './load-stripe';

/** The bank (or the card processor) refused: its own words, as the seeds show them. */
export class CardRefusedError extends Error {}

/** The seed's words when the provider gives none ("You card was declined", spelling corrected). */
export const CARD_DECLINED = 'Your card was declined';

/** A payment the customer confirmed with their bank: the provider's event credits it shortly. */
export const CONFIRMED_WITH_BANK = 'confirmed-with-bank' as const;

/**
 * Runs a payment call; when the bank asks for 3-D Secure (`authentication_required` with a client
 * secret) Stripe.js shows its check (`handleNextAction`). A card being saved is then finished by
 * calling again with the setup intent; a payment is complete once confirmed (the service records it
 * from the provider's event), so it answers CONFIRMED_WITH_BANK.
 */
export async function withBankConfirmation<T>(
  attempt: (setupIntentId: string | undefined) => Promise<T>,
): Promise<T | typeof CONFIRMED_WITH_BANK> {
  let setupIntentId: string | undefined;
  // Saving a card and then its $1 verification may each ask once.
  for (let round = 0; round < 3; round++) {
    try {
      return await attempt(setupIntentId);
    } catch (error) {
      if (!(error instanceof AuthenticationRequiredError) || !error.clientSecret) throw error;
      const stripe = await loadPaymentsJs();
      const result = await stripe.handleNextAction({ clientSecret: error.clientSecret });
      if (result.error) throw new CardRefusedError(result.error.message ?? CARD_DECLINED);
      if (!error.clientSecret.startsWith('seti_')) return CONFIRMED_WITH_BANK;
      setupIntentId = error.clientSecret.split('_secret_')[0];
    }
  }
  throw new CardRefusedError('Your bank keeps asking to confirm: please try again, or use another card.');
}
