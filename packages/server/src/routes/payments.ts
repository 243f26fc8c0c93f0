import { routes } from '@scrub/contract';
import { getProfile } from '../account/profiles.js';
import type { ServerContext } from '../context.js';
import { idempotencyKeyOf as keyOf } from '../http/idempotency-key.js';
import { listPurchases } from '../payments/purchase-ledger.js';

/** Cards, purchases, subscriptions and purchase history of the caller's account. */
export function registerPayments({ registry, database, payments }: ServerContext): void {
  const { db } = database;
  const { cards, subscriptions } = payments;
  const profileOf = (id: string) => getProfile(db, id);

  registry.add(routes.customerExists, async ({ principal }) => ({
    exists: (await profileOf(principal.profileId)).payment_customer_id !== null,
  }));

  registry.add(routes.listPaymentMethods, async ({ principal }) => ({
    payment_methods: await cards.listCards(await profileOf(principal.profileId)),
  }));

  registry.add(routes.paymentMethodExists, async ({ principal }) => ({
    exists: (await cards.listCards(await profileOf(principal.profileId))).length > 0,
  }));

  registry.add(routes.setupPayment, async ({ principal, body, request }) => ({
    message: await cards.setUp(await profileOf(principal.profileId), body, keyOf(request)),
  }));

  registry.add(routes.purchase, async ({ principal, body, request }) =>
    cards.buy(await profileOf(principal.profileId), body, keyOf(request)),
  );

  registry.add(routes.changePaymentMethod, async ({ principal, body }) => {
    const card = await cards.setDefaultCard(await profileOf(principal.profileId), body.payment_method_id);
    return { message: `Card Updated Successfully: ${card.brand} ending ${card.last4} is now the default.` };
  });

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

  registry.add(routes.listPurchases, async ({ principal, query }) => ({
    purchases: await listPurchases(db, principal.profileId, query),
  }));
}
