import { queryClient } from '../api/query-client';
import { accountKeys } from '../data/account';

/** The seeds refresh the balance about 0.5 s after a credit event, letting the ledger settle first. */
const AFTER_EVENT_MS = 500;

/**
 * A credit event happened (credits consumed by a check, a bulk job submitted, credits added):
 * refresh the balance shortly. `cancelRefetch: false` joins a refresh already in flight instead of
 * starting a second one.
 */
export function creditEvent(): void {
  setTimeout(() => {
    void queryClient.refetchQueries({ queryKey: accountKeys.credits }, { cancelRefetch: false });
    void queryClient.invalidateQueries({ queryKey: accountKeys.account });
  }, AFTER_EVENT_MS);
}
