import { type Purchase, type PurchaseHistoryQuery, routes } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

export class Purchases extends APIResource {
  /** Purchase history, newest first: of one `year`, or one `month` of it; `per_page` rows (default 5). */
  async list(query: PurchaseHistoryQuery = {}, options?: RequestOptions): Promise<Purchase[]> {
    const { purchases } = await this.client.request(routes.listPurchases, query, options);
    return purchases;
  }
}
