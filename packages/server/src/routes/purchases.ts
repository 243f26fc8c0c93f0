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

  // Auto top-up and the low-balance e-mail: payments/auto-top-up-settings.ts, payments/balance-watch.ts.
  registry.add(routes.getAutoTopUp, async ({ principal }) => payments.autoTopUps.get(principal.profileId));
  registry.add(routes.setAutoTopUp, async ({ principal, body }) => {
    const settings = await payments.autoTopUps.set(await profileOf(principal.profileId), body);
    // The balance may already be below a new threshold.
    payments.balanceWatch.nudge(principal.profileId);
    return settings;
  });

  registry.add(routes.listPurchases, async ({ principal, query }) => ({
    purchases: await listPurchases(db, principal.profileId, query),
  }));
}
