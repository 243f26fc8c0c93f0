import { DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS, routes, WEBHOOK_TEST_EVENT } from '@scrub/contract';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import { checkEndpointUrl } from '../webhooks/endpoint-url.js';
import {
  createEndpoint,
  endpointOf,
  getOwnEndpoint,
  listDeliveries,
  listEndpoints,
  recordEvent,
  removeEndpoint,
  rotateSecret,
} from '../webhooks/webhook-store.js';

/** Job webhooks: an account's endpoints, their signing secrets, test events and delivery logs. */
export function registerWebhooks({ registry, database, webhooks }: ServerContext): void {
  const { db } = database;
  const { settings, deliverer } = webhooks;

  registry.add(routes.createWebhookEndpoint, async ({ principal, body }) => {
    const url = await checkEndpointUrl(body.url, settings.allowLocal);
    const row = await createEndpoint(db, {
      profileId: principal.profileId,
      url,
      events: body.events,
      description: body.description,
    });
    return { ...endpointOf(row), secret: row.secret };
  });

  registry.add(routes.listWebhookEndpoints, async ({ principal }) => ({
    endpoints: (await listEndpoints(db, principal.profileId)).map(endpointOf),
  }));

  registry.add(routes.getWebhookEndpoint, async ({ principal, params }) =>
    endpointOf(await getOwnEndpoint(db, principal.profileId, params.endpoint_id)),
  );

  registry.add(routes.removeWebhookEndpoint, async ({ principal, params }) =>
    endpointOf(await removeEndpoint(db, principal.profileId, params.endpoint_id)),
  );

  registry.add(routes.rotateWebhookSecret, async ({ principal, params, body }) => {
    const grace = body?.grace_seconds ?? DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS;
    const row = await rotateSecret(db, principal.profileId, params.endpoint_id, grace);
    return {
      ...endpointOf(row),
      secret: row.secret,
      previous_secret_expires_at: row.previous_secret_expires_at?.toISOString() ?? null,
    };
  });

  registry.add(routes.testWebhookEndpoint, async ({ principal, params }) => {
    const endpoint = await getOwnEndpoint(db, principal.profileId, params.endpoint_id);
    const recorded = await recordEvent(db, {
      profileId: principal.profileId,
      type: WEBHOOK_TEST_EVENT,
      data: {
        message: 'A test event from Scrub: your endpoint received and can verify deliveries.',
        endpoint_id: endpoint.id,
      },
      retryForSeconds: settings.retryForSeconds,
      onlyEndpointId: endpoint.id,
      heldForSeconds: 60,
    });
    const deliveryId = recorded?.deliveryIds[0];
    // Removed between the two statements: nothing was sent.
    if (!deliveryId) throw new ApiError('not_found', `No webhook endpoint ${endpoint.id}.`);
    await deliverer.attemptNow(deliveryId);
    const { deliveries } = await listDeliveries(db, endpoint.id, 1, 1, deliveryId);
    const delivery = deliveries[0];
    if (!delivery) throw new ApiError('not_found', `No webhook endpoint ${endpoint.id}.`);
    return delivery;
  });

  registry.add(routes.listWebhookDeliveries, async ({ principal, params, query }) => {
    const endpoint = await getOwnEndpoint(db, principal.profileId, params.endpoint_id);
    return listDeliveries(db, endpoint.id, query.page, query.limit);
  });
}
