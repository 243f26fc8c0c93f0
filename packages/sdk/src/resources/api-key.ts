import { type ApiKeyRotation, routes } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { adoptApiKey } from '../core/internal.js';
import { APIResource } from '../core/resource.js';

export class ApiKey extends APIResource {
  /**
   * Makes a new API key and revokes the previous one at the same moment. The answer holds the
   * whole key, the only time it is ever shown: keep it. A client that was using an API key switches
   * to the new one, since its old key has just stopped working.
   */
  async rotate(options?: RequestOptions): Promise<ApiKeyRotation> {
    const rotation = await this.client.request(routes.rotateApiKey, {}, options);
    this.client[adoptApiKey](rotation.api_key);
    return rotation;
  }
}
