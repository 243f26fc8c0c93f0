import { loadScrub } from '../api/load-scrub';
import { queryClient } from '../api/query-client';
import { forgetActing } from './acting';

/** Revokes the session when it can, forgets it either way, and drops every cached answer of this user. */
export async function signOut(): Promise<void> {
  forgetActing();
  await (await loadScrub()).auth.signOut().catch(() => undefined);
  queryClient.clear();
}
