import { routes } from '@scrub/contract';
import { getProfile } from '../account/profiles.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import { idempotencyKeyOf as keyOf } from '../http/idempotency-key.js';

/** The caller's payment customer and saved cards, and the single-use payment links. */
export function registerCards({ registry, database, payments }: ServerContext): void {
  const { cards, links, setup } = payments;
  const profileOf = (id: string) => getProfile(database.db, id);

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

  registry.add(routes.changePaymentMethod, async ({ principal, body }) => {
    const card = await cards.setDefaultCard(await profileOf(principal.profileId), body.payment_method_id);
    return { message: `Card Updated Successfully: ${card.brand} ending ${card.last4} is now the default.` };
  });

  registry.add(routes.removePaymentMethod, async ({ principal, params }) => ({
    message: await cards.removeCard(await profileOf(principal.profileId), params.payment_method_id),
  }));

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
    // Claimed for this save, so two saves at once save one card; spent only once the card is
    // saved: a declined card or a 3-D Secure step gives it back for the retry.
    await links.claim(params.grant);
    let message: string;
    try {
      message = await cards.setUp(await profileOf(grant.profileId), body, keyOf(request));
    } catch (error) {
      await links.release(params.grant);
      throw error;
    }
    await links.use(params.grant);
    return { message };
  });
}
