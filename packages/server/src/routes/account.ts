import { routes } from '@scrub/contract';
import {
  creditSnapshot,
  getProfile,
  type Profile,
  setPlanStatus,
  updateProfile,
  userInfo,
} from '../account/profiles.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import { idempotencyKeyOf } from '../http/idempotency-key.js';
import { accountListSettings, setAccountLists } from '../operator-lists/operator-lists.js';

const planStatusMessages = {
  active: 'Your plan is active.',
  paused:
    'Your plan is paused. Resume it from My Account or with `scrub account activate` to buy or check again.',
} as const;

/** A subscription the provider still bills (or would, once resumed). */
const billedSubscription = (profile: Profile) =>
  profile.subscription_id !== null && ['active', 'paused', 'past_due'].includes(profile.subscription_status);

/** The caller's own account: user info, profile changes, plan pause and resume, credits. */
export function registerAccount({ registry, database, payments, referenceData }: ServerContext): void {
  const { db } = database;

  registry.add(routes.getUser, async ({ principal }) =>
    userInfo(db, await getProfile(db, principal.profileId)),
  );

  registry.add(routes.updateUser, async ({ principal, body }) => {
    await updateProfile(db, principal.profileId, body);
    return userInfo(db, await getProfile(db, principal.profileId));
  });

  // A paused account is not billed: its subscription is paused (or resumed) with it, at the provider.
  registry.add(routes.setPlanStatus, async ({ principal, body, request }) => {
    const profile = await getProfile(db, principal.profileId);
    const action = body.status === 'paused' ? 'pause' : 'resume';
    const moved =
      billedSubscription(profile) &&
      (await payments.subscriptions.setPaused(profile, action, idempotencyKeyOf(request)).then(
        () => true,
        // The provider has no live subscription (ended, webhook not seen yet): the plan alone moves.
        (error: unknown) => {
          if (error instanceof ApiError && error.code === 'not_found') return false;
          throw error;
        },
      ));
    if (!moved) await setPlanStatus(db, principal.profileId, body.status);
    return { message: planStatusMessages[body.status] };
  });

  registry.add(routes.getCredits, async ({ principal }) =>
    creditSnapshot(db, await getProfile(db, principal.profileId)),
  );

  // Operator lists (litigators...) the account counts by default: see operator-lists/.
  registry.add(routes.getLists, async ({ principal }) =>
    accountListSettings(db, referenceData.current(), principal.profileId),
  );
  registry.add(routes.setLists, async ({ principal, body }) => {
    const snapshot = referenceData.current();
    await setAccountLists(db, snapshot, principal.profileId, body.lists);
    return accountListSettings(db, snapshot, principal.profileId);
  });
}
