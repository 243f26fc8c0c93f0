import { type Plan, routes } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

export class Plans extends APIResource {
  /** The plan catalogue. Public: needs no credentials. */
  async list(options?: RequestOptions): Promise<Plan[]> {
    const { plans } = await this.client.request(routes.listPlans, {}, options);
    return plans;
  }
}
