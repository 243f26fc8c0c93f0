import type { ContactMessage } from '@scrub/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Challenge } from 'altcha-lib/types';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

export const serviceKeys = {
  openApi: ['openapi'] as const,
  config: ['config'] as const,
};

/** How long the lists' state from `/config` is kept before it is read again: imports are rare. */
const CONFIG_STALE_MS = 5 * 60_000;

/**
 * The shared do-not-call lists loaded on the service (`GET /config`'s `dnc_lists`): each list's
 * release date and age, the stale ones, the required ones missing. `enabled: false` asks nothing
 * (the shell asks only for admins).
 */
export function useDncLists({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: serviceKeys.config,
    queryFn: async () => (await loadScrub()).config(),
    select: (config) => config.dnc_lists,
    staleTime: CONFIG_STALE_MS,
    enabled,
  });
}

/**
 * Credits one record of a bulk job costs: 1, and with a consent-date column the reassigned-number
 * answer's price too (`/config`'s `reassigned.credits`; 1 from an older service that says nothing).
 */
export function useRecordPrice(withConsentColumn: boolean): number {
  const answer = useQuery({
    queryKey: serviceKeys.config,
    queryFn: async () => (await loadScrub()).config(),
    select: (config) => config.reassigned?.credits ?? 1,
    staleTime: CONFIG_STALE_MS,
    enabled: withConsentColumn,
  }).data;
  return withConsentColumn ? 1 + (answer ?? 1) : 1;
}

/** The service's OpenAPI 3.1 document (`GET /openapi.json`): it does not change while the page is open. */
export function useOpenApi() {
  return useQuery({
    queryKey: serviceKeys.openApi,
    queryFn: async () => (await loadScrub()).openApi(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The service's human check, solved in this browser: an ALTCHA proof-of-work challenge (up to a
 * second or so of hashing, nothing to type), as the `altcha` field's payload. Loaded when sent.
 */
async function solvedHumanCheck(scrub: Awaited<ReturnType<typeof loadScrub>>): Promise<string> {
  // The browser's hashing (WebCrypto) exists on secure pages only: https, localhost or 127.0.0.1.
  if (!globalThis.crypto?.subtle) {
    throw new Error(
      'The human check needs a secure page: open the dashboard over https, or at localhost or 127.0.0.1.',
    );
  }
  const [{ solveChallenge }, { deriveKey }, challenge] = await Promise.all([
    import('altcha-lib'),
    import('altcha-lib/algorithms/web/sha'),
    scrub.contactChallenge(),
  ]);
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey });
  if (!solution) throw new Error('The human check did not finish in time. Please send again.');
  return btoa(JSON.stringify({ challenge, solution }));
}

/** Sends the Contact us form (`POST /contact`), with the human check solved on the way. */
export function useSendContact(callbacks: Callbacks<{ message: string }> = {}) {
  return useMutation({
    mutationFn: async (message: Omit<ContactMessage, 'altcha'>) => {
      const scrub = await loadScrub();
      return scrub.contact({ ...message, altcha: await solvedHumanCheck(scrub) });
    },
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}

/**
 * The live carrier lookup a bulk job may ask (`/config`'s `carrier_lookup`): the credits an answered
 * lookup costs a record; null when the service offers none (or says nothing, or has not answered yet).
 */
export function useCarrierLookupOffer(): { credits: number } | null {
  const offer = useQuery({
    queryKey: serviceKeys.config,
    queryFn: async () => (await loadScrub()).config(),
    select: (config) => (config.carrier_lookup?.offered ? { credits: config.carrier_lookup.credits } : null),
    staleTime: CONFIG_STALE_MS,
  }).data;
  return offer ?? null;
}
