import { sql } from 'kysely';
import type { FormParams } from './form-params.js';
import type { Operation, OperationContext } from './local-stripe-context.js';
import { changedFields, resolvePaymentMethod } from './local-stripe-customers.js';
import { newId } from './local-stripe-ids.js';
import { payInvoice } from './local-stripe-intents.js';
import { listOf, pageOf } from './local-stripe-list.js';
import { objectStore, type StoredObject, type StripeObject } from './local-stripe-store.js';
import { invalidRequest, LocalStripeError } from './stripe-error.js';

// Over 500 lines, kept whole: the built-in provider's billing objects move one another (a test
// clock's advance renews subscriptions, a renewal invoices their prices and pays the invoice), and
// the subscription's item and period helpers serve every one of those operations. Products and
// prices (about 100 lines) are the one part that could leave, and the rest would still be over 500.

// ---- products and prices ----

async function newProduct(ctx: OperationContext, params: FormParams): Promise<StripeObject> {
  const product: StripeObject = {
    id: newId('prod'),
    object: 'product',
    active: params.boolean('active') ?? true,
    created: ctx.now(),
    description: params.string('description') || null,
    livemode: false,
    metadata: params.metadata(),
    name: params.requiredString('name'),
    updated: ctx.now(),
  };
  await ctx.save(product);
  ctx.emit('product.created', product);
  return product;
}

const createProduct: Operation = (ctx, params) => newProduct(ctx, params);
const retrieveProduct: Operation = async (ctx, _params, [id]) => (await ctx.find('product', id!)).data;

const INTERVALS = new Set(['day', 'week', 'month', 'year']);

const createPrice: Operation = async (ctx, params) => {
  const productData = params.object('product_data');
  const productId =
    params.string('product') || (productData ? (await newProduct(ctx, productData)).id : null);
  if (!productId) throw invalidRequest('Missing required param: product.', 'product', 'parameter_missing');
  await ctx.find('product', productId, 'product');
  const unitAmount = params.integer('unit_amount');
  if (unitAmount === undefined || unitAmount < 0) {
    throw invalidRequest('Missing required param: unit_amount.', 'unit_amount', 'parameter_missing');
  }
  const recurringParams = params.object('recurring');
  let recurring = null;
  if (recurringParams) {
    const interval = recurringParams.requiredString('interval');
    if (!INTERVALS.has(interval))
      throw invalidRequest(`Invalid interval: ${interval}`, 'recurring[interval]');
    recurring = {
      interval,
      interval_count: recurringParams.integer('interval_count') ?? 1,
      usage_type: 'licensed',
      meter: null,
    };
  }
  const lookupKey = params.string('lookup_key') || null;
  if (lookupKey) {
    const taken = await objectStore.list(ctx.db, 'price', { lookupKeys: [lookupKey] }, { limit: 1 });
    const holder = taken.data[0];
    if (holder) {
      if (!params.boolean('transfer_lookup_key')) {
        throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key');
      }
      holder.lookup_key = null;
      await ctx.save(holder);
    }
  }
  const price: StripeObject = {
    id: newId('price'),
    object: 'price',
    active: params.boolean('active') ?? true,
    billing_scheme: 'per_unit',
    created: ctx.now(),
    currency: params.requiredString('currency').toLowerCase(),
    livemode: false,
    lookup_key: lookupKey,
    metadata: params.metadata(),
    nickname: params.string('nickname') || null,
    product: productId,
    recurring,
    type: recurring ? 'recurring' : 'one_time',
    unit_amount: unitAmount,
  };
  await ctx.save(price);
  ctx.emit('price.created', price);
  return price;
};

const retrievePrice: Operation = async (ctx, _params, [id]) => (await ctx.find('price', id!)).data;

const listPrices: Operation = async (ctx, params) => {
  const lookupKeys = params.strings('lookup_keys');
  const page = await objectStore.list(
    ctx.db,
    'price',
    lookupKeys.length ? { lookupKeys } : {},
    pageOf(params),
  );
  const active = params.boolean('active');
  return listOf('/v1/prices', {
    ...page,
    data: page.data.filter((p) => active === undefined || p.active === active),
  });
};

// ---- test clocks ----

const createTestClock: Operation = async (ctx, params) => {
  const frozen = params.integer('frozen_time');
  if (frozen === undefined)
    throw invalidRequest('Missing required param: frozen_time.', 'frozen_time', 'parameter_missing');
  const clock: StripeObject = {
    id: newId('clock'),
    object: 'test_helpers.test_clock',
    created: ctx.now(),
    deletes_after: ctx.now() + 30 * 86_400,
    frozen_time: frozen,
    livemode: false,
    name: params.string('name') || null,
    status: 'ready',
  };
  await ctx.save(clock);
  return clock;
};

const retrieveTestClock: Operation = async (ctx, _params, [id]) =>
  (await ctx.find('test_helpers.test_clock', id!)).data;

/** Moves the clock and runs what falls due on its customers' subscriptions (Stripe does it asynchronously; here before answering). */
const advanceTestClock: Operation = async (ctx, params, [id]) => {
  const clock = await ctx.find('test_helpers.test_clock', id!);
  const to = params.integer('frozen_time');
  if (to === undefined)
    throw invalidRequest('Missing required param: frozen_time.', 'frozen_time', 'parameter_missing');
  if (to <= Number(clock.data.frozen_time)) {
    throw invalidRequest(
      'The test clock can only be advanced to a time after its current frozen time.',
      'frozen_time',
    );
  }
  clock.data.frozen_time = to;
  await ctx.save(clock.data);
  const customers = await ctx.db
    .selectFrom('local_stripe_objects')
    .select('id')
    .where('object', '=', 'customer')
    .where(sql<string>`data->>'test_clock'`, '=', clock.data.id)
    .execute();
  for (const subscriptionId of await objectStore.due(
    ctx.db,
    to,
    customers.map((c) => c.id),
  )) {
    await renew(ctx, subscriptionId, to);
  }
  return clock.data;
};

// ---- subscriptions and invoices ----

function addInterval(at: number, interval: string, count: number): number {
  const date = new Date(at * 1000);
  if (interval === 'day') date.setUTCDate(date.getUTCDate() + count);
  else if (interval === 'week') date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + count);
  else {
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + count);
    // Stripe bills on the anchor day, or the month's last day when it has none (31 Jan -> 28 Feb).
    const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, last));
  }
  return Math.floor(date.getTime() / 1000);
}

interface Item {
  id: string;
  price: StripeObject;
  quantity: number;
}

function itemObject(subscriptionId: string, item: Item, start: number, end: number, created: number) {
  return {
    id: item.id,
    object: 'subscription_item',
    created,
    current_period_end: end,
    current_period_start: start,
    metadata: {},
    price: item.price,
    quantity: item.quantity,
    subscription: subscriptionId,
  };
}

const itemsOf = (subscription: StripeObject) =>
  (subscription.items as { data: { id: string; price: StripeObject; quantity: number }[] }).data;

const periodOf = (subscription: StripeObject) => {
  const first = itemsOf(subscription)[0]!;
  const item = first as unknown as { current_period_start: number; current_period_end: number };
  return { start: item.current_period_start, end: item.current_period_end };
};

function setPeriod(subscription: StripeObject, start: number, end: number) {
  for (const item of itemsOf(subscription) as unknown as Record<string, number>[]) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
}

async function newInvoice(
  ctx: OperationContext,
  subscription: StripeObject,
  reason: 'subscription_create' | 'subscription_cycle',
  start: number,
  end: number,
  at: number,
): Promise<StripeObject> {
  const lines = itemsOf(subscription).map((item) => ({
    id: newId('il'),
    object: 'line_item',
    amount: Number(item.price.unit_amount) * item.quantity,
    currency: item.price.currency,
    description: `${item.quantity} × ${item.price.nickname ?? item.price.product} (at $${(Number(item.price.unit_amount) / 100).toFixed(2)} / ${(item.price.recurring as { interval: string }).interval})`,
    period: { end, start },
    pricing: { price_details: { price: item.price.id, product: item.price.product }, type: 'price_details' },
    quantity: item.quantity,
  }));
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const id = newId('in');
  const invoice: StripeObject = {
    id,
    object: 'invoice',
    amount_due: total,
    amount_paid: 0,
    amount_remaining: total,
    attempt_count: 0,
    attempted: false,
    billing_reason: reason,
    collection_method: 'charge_automatically',
    created: at,
    currency: itemsOf(subscription)[0]!.price.currency,
    customer: subscription.customer,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    number: `LOCAL-${id.slice(-8).toUpperCase()}`,
    parent: {
      quote_details: null,
      subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
      type: 'subscription_details',
    },
    period_end: end,
    period_start: start,
    status: 'open',
    status_transitions: { finalized_at: at, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    total,
  };
  await ctx.save(invoice);
  ctx.emit('invoice.created', invoice, undefined, at);
  ctx.emit('invoice.finalized', invoice, undefined, at);
  return invoice;
}

async function defaultMethodOf(ctx: OperationContext, subscription: StripeObject): Promise<string | null> {
  if (typeof subscription.default_payment_method === 'string') return subscription.default_payment_method;
  const customer = await ctx.find('customer', String(subscription.customer), 'customer');
  return (customer.data.invoice_settings as { default_payment_method: string | null }).default_payment_method;
}

async function pricesOf(ctx: OperationContext, params: FormParams, current: Item[] = []): Promise<Item[]> {
  const given = params.objects('items');
  if (given.length === 0) return current;
  const items = [...current];
  for (const entry of given) {
    const priceId = entry.string('price');
    const itemId = entry.string('id');
    const existing = itemId ? items.find((i) => i.id === itemId) : undefined;
    if (itemId && !existing)
      throw invalidRequest(`No such subscription item: '${itemId}'`, 'items', 'resource_missing');
    if (entry.boolean('deleted')) {
      items.splice(items.indexOf(existing!), 1);
      continue;
    }
    const price = priceId ? (await ctx.find('price', priceId, 'items[0][price]')).data : existing?.price;
    if (!price)
      throw invalidRequest(
        'Missing required param: items[0][price].',
        'items[0][price]',
        'parameter_missing',
      );
    if (!price.recurring) {
      throw invalidRequest(
        `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
        'items[0][price]',
      );
    }
    const quantity = entry.integer('quantity') ?? existing?.quantity ?? 1;
    if (existing) Object.assign(existing, { price, quantity });
    else items.push({ id: newId('si'), price, quantity });
  }
  if (items.length === 0) throw invalidRequest('A subscription needs at least one item.', 'items');
  return items;
}

const BEHAVIOURS = new Set([
  'allow_incomplete',
  'error_if_incomplete',
  'default_incomplete',
  'pending_if_incomplete',
]);

/**
 * Starts the subscription and bills its first period at once: `allow_incomplete` (Stripe's
 * default) keeps an unpaid subscription `incomplete`; `error_if_incomplete` refuses it and keeps
 * nothing; `default_incomplete` leaves the invoice's payment intent for the caller to confirm
 * (its client secret in `latest_invoice.confirmation_secret`).
 */
const createSubscription: Operation = async (ctx, params) => {
  const customerId = params.requiredString('customer');
  const customer = await ctx.find('customer', customerId, 'customer');
  const behaviour = params.string('payment_behavior') || 'allow_incomplete';
  if (!BEHAVIOURS.has(behaviour))
    throw invalidRequest(`Invalid payment_behavior: ${behaviour}`, 'payment_behavior');
  const items = await pricesOf(ctx, params);
  const at = await ctx.clockNow(customerId);
  const recurring = items[0]!.price.recurring as { interval: string; interval_count: number };
  const end = addInterval(at, recurring.interval, recurring.interval_count);
  const id = newId('sub');
  const pmParam = params.string('default_payment_method');
  if (pmParam) {
    const pm = await resolvePaymentMethod(ctx, pmParam, 'default_payment_method');
    if (pm.data.customer !== customerId) {
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${pm.data.id}.`,
        'default_payment_method',
      );
    }
  }
  const subscription: StripeObject = {
    id,
    object: 'subscription',
    billing_cycle_anchor: at,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    collection_method: 'charge_automatically',
    created: at,
    currency: items[0]!.price.currency,
    customer: customerId,
    default_payment_method: pmParam ?? null,
    ended_at: null,
    items: {
      object: 'list',
      data: items.map((item) => itemObject(id, item, at, end, at)),
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    metadata: params.metadata(),
    pause_collection: null,
    start_date: at,
    status: 'incomplete',
    test_clock: customer.data.test_clock ?? null,
  };
  const internal = { due_at: end };
  await ctx.save(subscription, internal, end);
  ctx.emit('customer.subscription.created', subscription, undefined, at);
  const invoice = await newInvoice(ctx, subscription, 'subscription_create', at, end, at);
  subscription.latest_invoice = invoice.id;
  await ctx.save(subscription, internal, end);

  const pmId = behaviour === 'default_incomplete' ? null : await defaultMethodOf(ctx, subscription);
  if (!pmId && behaviour !== 'default_incomplete' && Number(invoice.amount_due) > 0) {
    throw invalidRequest(
      'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
      undefined,
      'resource_missing',
    );
  }
  const intent = await payInvoice(ctx, invoice, pmId, params.boolean('off_session') ?? false);
  if (behaviour === 'error_if_incomplete' && intent.data.status !== 'succeeded') {
    const error = intent.data.last_payment_error as {
      code: string;
      decline_code?: string;
      message: string;
    } | null;
    throw new LocalStripeError(
      402,
      error
        ? {
            type: 'card_error',
            code: error.code,
            ...(error.decline_code ? { decline_code: error.decline_code } : {}),
            message: error.message,
            payment_intent: intent.data,
          }
        : {
            type: 'card_error',
            code: 'invoice_payment_intent_requires_action',
            message: 'This payment requires additional user action before it can be completed successfully.',
            payment_intent: intent.data,
          },
    );
  }
  return (await ctx.find('subscription', id)).data;
};

const retrieveSubscription: Operation = async (ctx, _params, [id]) =>
  (await ctx.find('subscription', id!)).data;

const listSubscriptions: Operation = async (ctx, params) => {
  const customer = params.string('customer');
  const status = params.string('status');
  const page = await objectStore.list(ctx.db, 'subscription', customer ? { customer } : {}, pageOf(params));
  const wanted = (s: StripeObject) =>
    status === 'all' ||
    (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired');
  return listOf('/v1/subscriptions', { ...page, data: page.data.filter(wanted) });
};

const PAUSE_BEHAVIOURS = new Set(['void', 'keep_as_draft', 'mark_uncollectible']);

/**
 * Changes take effect from the next period: a new price is billed at the next renewal (as with
 * `proration_behavior=none`; the built-in provider does not prorate).
 */
const updateSubscription: Operation = async (ctx, params, [id]) => {
  const stored = await ctx.find('subscription', id!);
  const subscription = stored.data;
  if (subscription.status === 'canceled') {
    throw invalidRequest(
      'A canceled subscription can only update its cancellation_details and metadata.',
      undefined,
      'invalid_canceled_subscription_fields',
    );
  }
  const before = structuredClone(subscription);
  const proration = params.string('proration_behavior');
  if (proration && !['none', 'create_prorations', 'always_invoice'].includes(proration)) {
    throw invalidRequest(`Invalid proration_behavior: ${proration}`, 'proration_behavior');
  }
  const current: Item[] = itemsOf(subscription).map((i) => ({
    id: i.id,
    price: i.price,
    quantity: i.quantity,
  }));
  const items = await pricesOf(ctx, params, current);
  const { start, end } = periodOf(subscription);
  subscription.items = {
    ...(subscription.items as object),
    data: items.map((item) =>
      itemObject(String(subscription.id), item, start, end, Number(subscription.created)),
    ),
  };
  if (params.isEmpty('pause_collection')) subscription.pause_collection = null;
  else {
    const pause = params.object('pause_collection');
    if (pause) {
      const behavior = pause.requiredString('behavior');
      if (!PAUSE_BEHAVIOURS.has(behavior))
        throw invalidRequest(`Invalid behavior: ${behavior}`, 'pause_collection[behavior]');
      subscription.pause_collection = { behavior, resumes_at: pause.integer('resumes_at') ?? null };
    }
  }
  const cancelAtEnd = params.boolean('cancel_at_period_end');
  if (cancelAtEnd !== undefined) {
    subscription.cancel_at_period_end = cancelAtEnd;
    subscription.cancel_at = cancelAtEnd ? end : null;
    subscription.canceled_at = cancelAtEnd ? await ctx.clockNow(String(subscription.customer)) : null;
  }
  const pmId = params.has('default_payment_method')
    ? params.string('default_payment_method') || null
    : undefined;
  if (pmId) {
    const pm = await resolvePaymentMethod(ctx, pmId, 'default_payment_method');
    if (pm.data.customer !== subscription.customer) {
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${pm.data.id}.`,
        'default_payment_method',
      );
    }
  }
  if (pmId !== undefined) subscription.default_payment_method = pmId;
  subscription.metadata = params.metadata(subscription.metadata as Record<string, string>);
  await ctx.save(subscription, stored.internal, stored.internal.due_at as number);
  const changed = changedFields(before, subscription);
  if (Object.keys(changed).length) ctx.emit('customer.subscription.updated', subscription, changed);
  return subscription;
};

const cancelSubscription: Operation = async (ctx, _params, [id]) => {
  const stored = await ctx.find('subscription', id!);
  if (stored.data.status === 'canceled') {
    throw invalidRequest(`No such subscription: '${id}'`, 'id', 'resource_missing');
  }
  await endSubscription(ctx, stored, await ctx.clockNow(String(stored.data.customer)));
  return stored.data;
};

async function endSubscription(ctx: OperationContext, stored: StoredObject, at: number) {
  Object.assign(stored.data, {
    status: 'canceled',
    ended_at: at,
    canceled_at: stored.data.canceled_at ?? at,
    cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
  });
  stored.internal.due_at = null;
  await ctx.save(stored.data, stored.internal, null);
  ctx.emit('customer.subscription.deleted', stored.data, undefined, at);
}

/**
 * Ends each period that is over by `now`: cancels at period end if asked, else opens the next
 * period with its invoice, voided while collection is paused, otherwise charged off-session to
 * the default card (paid: `invoice.paid`; refused: `invoice.payment_failed`, `past_due`).
 */
export async function renew(ctx: OperationContext, subscriptionId: string, now: number): Promise<void> {
  const stored = await ctx.find('subscription', subscriptionId);
  const subscription = stored.data;
  while (
    ['active', 'past_due', 'trialing'].includes(String(subscription.status)) &&
    periodOf(subscription).end <= now
  ) {
    const { end } = periodOf(subscription);
    if (subscription.cancel_at_period_end) {
      await endSubscription(ctx, stored, end);
      return;
    }
    const recurring = itemsOf(subscription)[0]!.price.recurring as {
      interval: string;
      interval_count: number;
    };
    const next = addInterval(end, recurring.interval, recurring.interval_count);
    const before = {
      items: structuredClone(subscription.items),
      latest_invoice: subscription.latest_invoice,
    };
    setPeriod(subscription, end, next);
    stored.internal.due_at = next;
    await ctx.save(subscription, stored.internal, next);
    const invoice = await newInvoice(ctx, subscription, 'subscription_cycle', end, next, end);
    subscription.latest_invoice = invoice.id;
    await ctx.save(subscription, stored.internal, next);
    ctx.emit('customer.subscription.updated', subscription, before, end);
    if (subscription.pause_collection) {
      Object.assign(invoice, {
        status: 'void',
        amount_remaining: 0,
        status_transitions: { ...(invoice.status_transitions as object), voided_at: end },
      });
      await ctx.save(invoice);
      ctx.emit('invoice.voided', invoice, undefined, end);
      continue;
    }
    await payInvoice(ctx, invoice, await defaultMethodOf(ctx, subscription), true);
    Object.assign(subscription, (await ctx.find('subscription', subscriptionId)).data);
  }
}

/** Due subscriptions on real time (not on a test clock). */
export async function renewDue(ctx: OperationContext, subscriptionId: string): Promise<void> {
  const stored = await ctx.find('subscription', subscriptionId);
  if (stored.data.test_clock) return;
  await renew(ctx, subscriptionId, ctx.now());
}

const retrieveInvoice: Operation = async (ctx, _params, [id]) => (await ctx.find('invoice', id!)).data;

const listInvoices: Operation = async (ctx, params) => {
  const customer = params.string('customer');
  const subscription = params.string('subscription');
  const status = params.string('status');
  const page = await objectStore.list(ctx.db, 'invoice', customer ? { customer } : {}, pageOf(params));
  const data = page.data.filter(
    (invoice) =>
      (!subscription ||
        (invoice.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details
          ?.subscription === subscription) &&
      (!status || invoice.status === status),
  );
  return listOf('/v1/invoices', { ...page, data });
};

export const billingOperations = {
  createProduct,
  retrieveProduct,
  createPrice,
  retrievePrice,
  listPrices,
  createTestClock,
  retrieveTestClock,
  advanceTestClock,
  createSubscription,
  retrieveSubscription,
  listSubscriptions,
  updateSubscription,
  cancelSubscription,
  retrieveInvoice,
  listInvoices,
};
