import { routes } from '@scrub/contract';
import { getProfile } from '../account/profiles.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import { idempotencyKeyOf as keyOf } from '../http/idempotency-key.js';
import { listPurchases } from '../payments/purchase-ledger.js';

/** Cards, purchases, subscriptions and purchase history of the caller's account. */
export function registerPayments({ registry, database, payments }: ServerContext): void {
  const { db } = database;
  const { cards, subscriptions, links, setup } = payments;
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

  registry.add(routes.confirmPurchase, async ({ principal, body }) =>
    cards.confirm(await profileOf(principal.profileId), body.payment_intent_id),
  );

  registry.add(routes.createCardLink, async ({ principal }) => links.issue(principal.profileId, 'add_card'));

  // The link is the credential: these two read the account from it and do only what it was made for.
  registry.add(routes.getPaymentLink, async ({ params }) => {
    const grant = await links.check(params.grant);
    if (grant.purpose === 'add_card' || !grant.paymentIntentId) {
      return { purpose: grant.purpose, expires_at: grant.expiresAt.toISOString(), client_secret: null };
    }
    const charge = await setup.provider.getCharge(grant.paymentIntentId);
    if (charge.status !== 'requires_action') {
      throw new ApiError(
        'payment_link_expired',
        charge.status === 'succeeded'
          ? 'This payment is already confirmed: there is nothing left to do here.'
          : 'This payment can no longer be confirmed: it was refused. Nothing was charged.',
      );
    }
    return {
      purpose: grant.purpose,
      expires_at: grant.expiresAt.toISOString(),
      client_secret: charge.clientSecret,
    };
  });

  registry.add(routes.setupPaymentWithLink, async ({ params, body, request }) => {
    const grant = await links.check(params.grant, 'add_card');
    // Used only once the card is saved: a declined card or a 3-D Secure step leaves it open for the retry.
    const message = await cards.setUp(await profileOf(grant.profileId), body, keyOf(request));
    await links.use(params.grant);
    return { message };
  });

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
