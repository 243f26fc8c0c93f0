import { type Message, type PlanStatus, routes, type UpdateUser, type UserInfo } from '@scrub/contract';
import type { RequestOptions } from '../client.js';
import { APIResource } from '../core/resource.js';

/** The caller's own account: profile, plan, credits, which API key is active (never the key). */
export class User extends APIResource {
  get(options?: RequestOptions): Promise<UserInfo> {
    return this.client.request<UserInfo>(routes.getUser, options);
  }

  /** Changes the name, address or purchase settings; fields left out keep their values. */
  update(changes: UpdateUser, options?: RequestOptions): Promise<UserInfo> {
    return this.client.request<UserInfo>(routes.updateUser, { ...options, body: changes });
  }

  /** Pauses (`'paused'`) or resumes (`'active'`) the plan; answers the server's message. */
  async setPlanStatus(status: PlanStatus, options?: RequestOptions): Promise<string> {
    const { message } = await this.client.request<Message>(routes.setPlanStatus, {
      ...options,
      body: { status },
    });
    return message;
  }
}
