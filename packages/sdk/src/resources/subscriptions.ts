import { routes, type Subscription } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

/**
 * The monthly plan: null when there is none. Monthly credits (or unlimited checks) come with each
 * paid month; pausing pauses billing and the account's plan (checks answer `PlanPausedError`).
 */
export class Subscriptions extends APIResource {
  async get(options?: RequestOptions): Promise<Subscription | null> {
    return (await this.client.request(routes.getSubscription, {}, options)).subscription;
  }

  /** Starts a monthly plan (its reference, or its provider price id) on the default card. */
  async start(plan: string, options?: RequestOptions): Promise<Subscription | null> {
    return (await this.client.request(routes.createSubscription, { price_id: plan }, options)).subscription;
  }

  /** Switches to another monthly plan from the next period. */
  async switch(planReference: string, options?: RequestOptions): Promise<Subscription | null> {
    return (await this.client.request(routes.changeSubscription, { plan_reference: planReference }, options))
      .subscription;
  }

  async pause(options?: RequestOptions): Promise<Subscription | null> {
    return (await this.client.request(routes.patchSubscription, { action: 'pause' }, options)).subscription;
  }

  async resume(options?: RequestOptions): Promise<Subscription | null> {
    return (await this.client.request(routes.patchSubscription, { action: 'resume' }, options)).subscription;
  }

  /** Ends the subscription when the paid period ends. */
  async cancel(options?: RequestOptions): Promise<Subscription | null> {
    return (await this.client.request(routes.cancelSubscription, {}, options)).subscription;
  }
}
