import { routes } from '@scrub/contract';
import { creditSnapshot, getProfile, setPlanStatus, updateProfile, userInfo } from '../account/profiles.js';
import type { ServerContext } from '../context.js';

const planStatusMessages = {
  active: 'Your plan is active.',
  paused: 'Your plan is paused. Resume it from My Account to buy or check again.',
} as const;

/** The caller's own account: user info, profile changes, plan pause and resume, credits. */
export function registerAccount({ registry, database }: ServerContext): void {
  const { db } = database;

  registry.add(routes.getUser, async ({ principal }) =>
    userInfo(db, await getProfile(db, principal.profileId)),
  );

  registry.add(routes.updateUser, async ({ principal, body }) => {
    await updateProfile(db, principal.profileId, body);
    return userInfo(db, await getProfile(db, principal.profileId));
  });

  registry.add(routes.setPlanStatus, async ({ principal, body }) => {
    await setPlanStatus(db, principal.profileId, body.status);
    return { message: planStatusMessages[body.status] };
  });

  registry.add(routes.getCredits, async ({ principal }) =>
    creditSnapshot(db, await getProfile(db, principal.profileId)),
  );
}
