import { VerifyQuerySchema } from '@scrub/contract';
import { useMutation } from '@tanstack/react-query';
import { loadScrub } from '../api/load-scrub';
import { creditEvent } from '../credits/credit-events';

/**
 * The API page's test check of one US number (ten digits, sent as +1…), marked `test` so that an
 * active subscription makes it free (seed 001); the balance is read again after it.
 */
export function useVerifyNumber() {
  return useMutation({
    mutationFn: async (digits: string) => {
      const query = VerifyQuerySchema.parse({ p: `+1${digits}` });
      return (await loadScrub()).verify(query.p, { test: true });
    },
    onSuccess: () => creditEvent(),
  });
}
