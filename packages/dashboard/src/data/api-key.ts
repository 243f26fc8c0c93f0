import type { ApiKeyRotation } from '@scrub/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import { accountKeys } from './account';
import type { Callbacks } from './callbacks';

/** A new API key (the old one stops at once); the account, which shows the key's last 4, is read again. */
export function useRotateApiKey(callbacks: Callbacks<ApiKeyRotation> = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await loadScrub()).apiKey.rotate(),
    onSuccess: async (rotation) => {
      await callbacks.onSuccess?.(rotation);
      void client.invalidateQueries({ queryKey: accountKeys.account });
    },
    onError: callbacks.onError,
  });
}
