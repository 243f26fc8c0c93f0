import { routes, type UsageQuery, type UsageReport } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

/**
 * `GET /usage`: `from`, `to` (UTC days, both included), `interval` (`day` or `week`) and `account`
 * (an Agency's client, or any account for an admin); all optional.
 */
export type UsageParams = Partial<UsageQuery>;

/** Client Performance: what an account (an Agency: each client and the total) used, by day or week. */
export class Usage extends APIResource {
  /**
   * Checks by source, the line-type mix, the DNC hit rate, credits spent and bought, jobs, cached
   * and free answers: for each interval, each account counted, and the whole.
   */
  get(params: UsageParams = {}, options?: RequestOptions): Promise<UsageReport> {
    return this.client.request(routes.getUsage, params, options);
  }

  /** The same figures as CSV, a line per account and interval (and the total's), streamed. */
  export(params: UsageParams = {}, options?: RequestOptions): Promise<ReadableStream<Uint8Array>> {
    return this.client.request(routes.exportUsage, params, options);
  }
}
