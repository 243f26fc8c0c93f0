import {
  type CreateWebhookEndpoint,
  type RotatedWebhookSecret,
  type RotateWebhookSecret,
  routes,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { type NumberedPage, numberedPage } from '../core/numbered-page.js';
import { PagePromise } from '../core/pagination.js';
import { APIResource } from '../core/resource.js';

export type WebhookDeliveryPage = NumberedPage<WebhookDeliveryList, WebhookDelivery>;

/**
 * Endpoints that Scrub POSTs `job.completed` and `job.failed` events to, signed with the
 * endpoint's secret (check them with `verifyWebhookSignature`), retried for a day until answered 2xx.
 */
export class Webhooks extends APIResource {
  /** Registers an endpoint; the answer's `secret` (`whsec_...`) is shown this once: keep it. */
  create(params: CreateWebhookEndpoint, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.client.request(routes.createWebhookEndpoint, params, options);
  }

  /** The account's endpoints, oldest first (without their secrets). */
  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    const { endpoints } = await this.client.request(routes.listWebhookEndpoints, {}, options);
    return endpoints;
  }

  get(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.request(routes.getWebhookEndpoint, { endpoint_id: endpointId }, options);
  }

  /** Nothing more is sent to it; deliveries still pending are dropped. */
  remove(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.request(routes.removeWebhookEndpoint, { endpoint_id: endpointId }, options);
  }

  /**
   * A new signing secret, shown this once. The old one keeps signing beside it (a second `v1=`)
   * for `grace_seconds`, a day by default, 0 to stop it at once; the answer says until when.
   */
  rotateSecret(
    endpointId: string,
    params: RotateWebhookSecret = {},
    options?: RequestOptions,
  ): Promise<RotatedWebhookSecret> {
    return this.client.request(routes.rotateWebhookSecret, { endpoint_id: endpointId, ...params }, options);
  }

  /** Sends a signed `webhook.test` event now; answers the delivery with its first attempt's outcome. */
  test(endpointId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.client.request(routes.testWebhookEndpoint, { endpoint_id: endpointId }, options);
  }

  /** The endpoint's deliveries, newest first, with every attempt: `await` one page or iterate them all. */
  deliveries(
    endpointId: string,
    params: { page?: number; limit?: number } = {},
    options?: RequestOptions,
  ): PagePromise<WebhookDeliveryPage, WebhookDelivery> {
    const fetchPage = async (page: number): Promise<WebhookDeliveryPage> =>
      numberedPage(
        await this.client.request(
          routes.listWebhookDeliveries,
          { ...params, page, endpoint_id: endpointId },
          options,
        ),
        (list) => list.deliveries,
        fetchPage,
      );
    return new PagePromise(() => fetchPage(params.page ?? 1));
  }
}
