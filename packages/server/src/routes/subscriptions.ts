import { routes } from '@scrub/contract';
import { getProfile } from '../account/profiles.js';
import type { ServerContext } from '../context.js';
import { idempotencyKeyOf as keyOf } from '../http/idempotency-key.js';

/** The monthly plan: start, switch, pause or resume, cancel. */
export function registerSubscriptions({ registry, database, payments }: ServerContext): void {
  const { subscriptions } = payments;
  const profileOf = (id: string) => getProfile(database.db, id);

  registry.add(routes.getSubscription, async ({ principal }) =>
    subscriptions.view(await profileOf(principal.profileId)),
  );

  registry.add(routes.createSubscription, async ({ principal, body, request }) =>
    subscriptions.start(await profileOf(principal.profileId), body.price_id, keyOf(request)),
  );

  registry.add(routes.changeSubscription, async ({ principal, body, request }) =>
    subscriptions.switchTo(await profileOf(principal.profileId), body.plan_reference, keyOf(request)),
  );

  registry.add(routes.patchSubscription, async ({ principal, body, request }) =>
    subscriptions.setPaused(await profileOf(principal.profileId), body.action, keyOf(request)),
  );

  registry.add(routes.cancelSubscription, async ({ principal, request }) =>
    subscriptions.cancel(await profileOf(principal.profileId), keyOf(request)),
  );
}
