import { queryClient } from '../api/query-client';
import { scrub } from '../api/scrub-client';

/** Revokes the session when it can, forgets it either way, and drops every cached answer of this user. */
export async function signOut(): Promise<void> {
  await scrub.auth.signOut().catch(() => undefined);
  queryClient.clear();
}
