import type { FormParams } from './form-params.js';
import { newId } from './local-stripe-ids.js';
import {
  type LocalStripeDb,
  objectStore,
  type StoredObject,
  type StripeObject,
} from './local-stripe-store.js';
import { noSuchObject } from './stripe-error.js';

/** Which key called: the secret key (the service) or the publishable key (a browser). */
export type Caller = 'secret' | 'publishable';

/** One request being answered, inside its transaction: what operations read and what they emit. */
export class OperationContext {
  readonly events: StripeObject[] = [];

  constructor(
    readonly db: LocalStripeDb,
    readonly caller: Caller,
    readonly requestId: string,
    readonly idempotencyKey: string | null,
    readonly apiVersion: string,
    readonly publicUrl: () => string,
  ) {}

  /** Real time, in Unix seconds. Objects on a test clock use `clockNow` instead. */
  now(): number {
    return Math.floor(Date.now() / 1000);
  }

  /** The time a customer lives in: their test clock's, or the real one. */
  async clockNow(customerId: string | null | undefined): Promise<number> {
    if (!customerId) return this.now();
    const customer = await objectStore.get(this.db, customerId);
    const clockId = customer?.data.test_clock;
    if (typeof clockId !== 'string') return this.now();
    const clock = await objectStore.get(this.db, clockId);
    return typeof clock?.data.frozen_time === 'number' ? clock.data.frozen_time : this.now();
  }

  async find(kind: string, id: string, param = 'id'): Promise<StoredObject> {
    const found = await objectStore.get(this.db, id, true);
    if (!found || found.data.object !== kind || found.data.deleted === true)
      throw noSuchObject(kind, id, param);
    return found;
  }

  async save(
    data: StripeObject,
    internal: Record<string, unknown> = {},
    dueAt: number | null = null,
  ): Promise<void> {
    await objectStore.put(this.db, data, internal, dueAt);
  }

  /** Records `type` with a copy of the object as it is now; sent to the webhook endpoint once committed. */
  emit(
    type: string,
    object: StripeObject,
    previousAttributes?: Record<string, unknown>,
    at = this.now(),
  ): void {
    this.events.push({
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: at,
      data: {
        object: structuredClone(object),
        ...(previousAttributes ? { previous_attributes: previousAttributes } : {}),
      },
      livemode: false,
      pending_webhooks: 0,
      request: { id: this.requestId, idempotency_key: this.idempotencyKey },
      type,
    });
  }
}

/** An operation: the request's parameters in, a Stripe object (or an error to answer) out. */
export type Operation = (ctx: OperationContext, params: FormParams, path: string[]) => Promise<object>;
