import { type CreditSnapshot, routes } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

export class Credits extends APIResource {
  /** Credits left (`credits_remaining` reads `'unlimited'` on an active unlimited plan), plan and subscription. */
  get(options?: RequestOptions): Promise<CreditSnapshot> {
    return this.client.request<CreditSnapshot>(routes.getCredits, options);
  }
}
