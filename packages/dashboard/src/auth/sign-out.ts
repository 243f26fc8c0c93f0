import { loadScrub } from '../api/load-scrub';
import { queryClient } from '../api/query-client';
import { forgetActing } from './acting';

/** Revokes the session when it can, forgets it either way, and drops every cached answer of this user. */
export async function signOut(): Promise<void> {
  forgetActing();
  await (await loadScrub()).auth.signOut().catch(() => undefined);
  queryClient.clear();
}

/** Ends every session of the account on every device; forgotten here even when that fails (it then throws). */
export async function signOutEverywhere(): Promise<void> {
  forgetActing();
  try {
    await (await loadScrub()).auth.signOut({ everywhere: true });
  } finally {
    queryClient.clear();
  }
}
