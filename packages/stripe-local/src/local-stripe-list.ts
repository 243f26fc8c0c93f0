import type { FormParams } from './form-params.js';
import type { StripeObject } from './local-stripe-store.js';
import { invalidRequest } from './stripe-error.js';

/** `limit` (1..100, default 10), `starting_after`, `ending_before`, as Stripe's list calls take them. */
export function pageOf(params: FormParams) {
  const limit = params.integer('limit') ?? 10;
  if (limit < 1 || limit > 100) throw invalidRequest('Invalid limit: must be between 1 and 100', 'limit');
  return {
    limit,
    startingAfter: params.string('starting_after') || undefined,
    endingBefore: params.string('ending_before') || undefined,
  };
}

export function listOf(url: string, page: { data: StripeObject[]; has_more: boolean }) {
  return { object: 'list', data: page.data, has_more: page.has_more, url };
}
