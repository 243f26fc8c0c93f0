import type { PaymentSetupRequest } from '@scrub/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import { loadPaymentsJs } from '../payments/load-stripe';
import type { Callbacks } from './callbacks';

/** Saved cards and card links (the SDK's `cards` namespace). */
const cards = async () => (await loadScrub()).cards;

export const cardsKeys = {
  cards: ['payment-methods'] as const,
  link: (grant: string) => ['payment-link', grant] as const,
  paymentsJs: ['stripe-js'] as const,
};

/** The account's saved cards; the default one is charged. */
export function useCards() {
  return useQuery({ queryKey: cardsKeys.cards, queryFn: async () => (await cards()).listMethods() });
}

/** Makes a saved card the default; the list is read again. Answers the service's message. */
export function useSetDefaultCard(callbacks: Callbacks<string> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await cards()).setDefaultMethod(id),
    onSuccess: async (message) => {
      await client.invalidateQueries({ queryKey: cardsKeys.cards });
      await callbacks.onSuccess?.(message);
    },
    onError: callbacks.onError,
  });
}

/** Removes a saved card; the list is read again. Answers the service's message. */
export function useRemoveCard(callbacks: Callbacks<string> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await cards()).removeMethod(id),
    onSuccess: async (message) => {
      await client.invalidateQueries({ queryKey: cardsKeys.cards });
      await callbacks.onSuccess?.(message);
    },
    onError: callbacks.onError,
  });
}

/** What a card link or a payment link (`?grant=`) is for; a used or expired one is an error, not retried. */
export function usePaymentLink(grant: string) {
  return useQuery({
    queryKey: cardsKeys.link(grant),
    queryFn: async () => (await cards()).getLink(grant),
    retry: false,
  });
}

/** Stripe.js (or the service's stand-in), for the card form and the bank's check: loaded once. */
export function usePaymentsJs() {
  return useQuery({
    queryKey: cardsKeys.paymentsJs,
    queryFn: loadPaymentsJs,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The bank's check (3-D Secure) of a payment, by its client secret, through Stripe.js. */
export function useConfirmWithBank() {
  return useMutation({
    mutationFn: async (clientSecret: string) => {
      const stripe = await loadPaymentsJs();
      const result = await stripe.handleNextAction({ clientSecret });
      if (result.error) throw new Error(result.error.message ?? 'Your bank did not confirm the payment.');
    },
  });
}

/**
 * Saves a card made in the browser (POST /payment/setup), on the signed-in account or, with a card
 * link's grant, on the link's account. Answers the service's message.
 */
export async function saveCard(input: PaymentSetupRequest, grant?: string): Promise<string> {
  return grant ? (await cards()).setupWithLink(grant, input) : (await cards()).setup(input);
}
