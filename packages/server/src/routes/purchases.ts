import { routes } from '@scrub/contract';
import { getProfile } from '../account/profiles.js';
import type { ServerContext } from '../context.js';
import { idempotencyKeyOf as keyOf } from '../http/idempotency-key.js';
import { listPurchases } from '../payments/purchase-ledger.js';

/** One-off purchases on the default card, their 3-D Secure confirmation, and the purchase history. */
export function registerPurchases({ registry, database, payments }: ServerContext): void {
  const { db } = database;
  const { cards } = payments;
  const profileOf = (id: string) => getProfile(db, id);

  registry.add(routes.purchase, async ({ principal, body, request }) =>
    cards.buy(await profileOf(principal.profileId), body, keyOf(request)),
  );

  registry.add(routes.confirmPurchase, async ({ principal, body }) =>
    cards.confirm(await profileOf(principal.profileId), body.payment_intent_id),
  );

  registry.add(routes.listPurchases, async ({ principal, query }) => ({
    purchases: await listPurchases(db, principal.profileId, query),
  }));
}
