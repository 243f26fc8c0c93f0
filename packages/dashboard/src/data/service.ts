import type { ContactMessage } from '@scrub/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import type { Callbacks } from './callbacks';

export const serviceKeys = {
  openApi: ['openapi'] as const,
};

/** The service's OpenAPI 3.1 document (`GET /openapi.json`): it does not change while the page is open. */
export function useOpenApi() {
  return useQuery({
    queryKey: serviceKeys.openApi,
    queryFn: async () => (await loadScrub()).openApi(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Sends the Contact us form (`POST /contact`). */
export function useSendContact(callbacks: Callbacks<{ message: string }> = {}) {
  return useMutation({
    mutationFn: async (message: ContactMessage) => (await loadScrub()).contact(message),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
  });
}
