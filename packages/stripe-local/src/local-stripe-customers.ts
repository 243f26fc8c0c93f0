import type { FormParams } from './form-params.js';
import type { Operation, OperationContext } from './local-stripe-context.js';
import { newId } from './local-stripe-ids.js';
import { listOf, pageOf } from './local-stripe-list.js';
import { objectStore, type StoredObject, type StripeObject } from './local-stripe-store.js';
import { invalidRequest, LocalStripeError, noSuchObject } from './stripe-error.js';
import { DECLINES, TEST_PAYMENT_METHODS, testCardFor } from './test-cards.js';

const ADDRESS = ['city', 'country', 'line1', 'line2', 'postal_code', 'state'] as const;

function customerFields(params: FormParams, current: StripeObject | null) {
  const set = (key: string) => (params.has(key) ? params.string(key) || null : (current?.[key] ?? null));
  const address = params.isEmpty('address')
    ? null
    : (params.record('address', ADDRESS) ?? current?.address ?? null);
  return {
    email: set('email'),
    name: set('name'),
    phone: set('phone'),
    description: set('description'),
    address,
    metadata: params.metadata((current?.metadata as Record<string, string>) ?? {}),
  };
}

async function setDefaultMethod(ctx: OperationContext, customer: StripeObject, params: FormParams) {
  const settings = params.object('invoice_settings');
  if (!settings?.has('default_payment_method')) return;
  const pmId = settings.string('default_payment_method') || null;
  if (pmId) {
    const pm = await objectStore.get(ctx.db, pmId);
    if (!pm || pm.data.customer !== customer.id) {
      throw invalidRequest(
        `No such PaymentMethod: '${pmId}'; It's possible this PaymentMethod exists on one of your connected accounts, in which case you should retry this request on that connected account.`,
        'invoice_settings[default_payment_method]',
        'resource_missing',
      );
    }
  }
  customer.invoice_settings = { ...(customer.invoice_settings as object), default_payment_method: pmId };
}

const createCustomer: Operation = async (ctx, params) => {
  const clock = params.string('test_clock');
  if (clock) await ctx.find('test_helpers.test_clock', clock, 'test_clock');
  const customer: StripeObject = {
    id: newId('cus'),
    object: 'customer',
    created: ctx.now(),
    ...customerFields(params, null),
    balance: 0,
    currency: null,
    default_source: null,
    delinquent: false,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    preferred_locales: [],
    test_clock: clock ?? null,
  };
  await ctx.save(customer);
  const pmId = params.string('payment_method');
  if (pmId) await attach(ctx, await resolvePaymentMethod(ctx, pmId, 'payment_method'), customer.id);
  await setDefaultMethod(ctx, customer, params);
  await ctx.save(customer);
  ctx.emit('customer.created', customer);
  return customer;
};

const retrieveCustomer: Operation = async (ctx, _params, [id]) => {
  const found = await objectStore.get(ctx.db, id!);
  if (found?.data.object !== 'customer') throw noSuchObject('customer', id!);
  if (found.data.deleted) return { id: found.data.id, object: 'customer', deleted: true };
  return found.data;
};

const updateCustomer: Operation = async (ctx, params, [id]) => {
  const { data: customer } = await ctx.find('customer', id!);
  const before = structuredClone(customer);
  Object.assign(customer, customerFields(params, customer));
  await setDefaultMethod(ctx, customer, params);
  await ctx.save(customer);
  ctx.emit('customer.updated', customer, changedFields(before, customer));
  return customer;
};

const deleteCustomer: Operation = async (ctx, _params, [id]) => {
  const { data: customer } = await ctx.find('customer', id!);
  customer.deleted = true;
  await ctx.save(customer);
  ctx.emit('customer.deleted', customer);
  return { id: customer.id, object: 'customer', deleted: true };
};

const listCustomers: Operation = async (ctx, params) => {
  const email = params.string('email');
  const page = await objectStore.list(ctx.db, 'customer', email ? { email } : {}, pageOf(params));
  return listOf('/v1/customers', { ...page, data: page.data.filter((c) => !c.deleted) });
};

/** Stripe's search language, as far as the product uses it: `email:'a@b.c'`. */
const searchCustomers: Operation = async (ctx, params) => {
  const query = params.requiredString('query');
  const match = /^\s*email\s*:\s*(['"])(.*)\1\s*$/.exec(query);
  if (!match) {
    throw invalidRequest(
      `The built-in payment provider searches customers by email only (email:'...'); got ${query}`,
      'query',
    );
  }
  const page = await objectStore.list(
    ctx.db,
    'customer',
    { email: match[2]! },
    { limit: params.integer('limit') ?? 10 },
  );
  return {
    object: 'search_result',
    data: page.data.filter((c) => !c.deleted),
    has_more: false,
    next_page: null,
    url: '/v1/customers/search',
  };
};

// ---- payment methods ----

interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string;
}

function cardError(code: string, message: string, param: string) {
  return new LocalStripeError(402, { type: 'card_error', code, message, param });
}

/** A card checked as Stripe checks it when a payment method is made (number, expiry, CVC). */
function checkedCard(input: CardInput, now: number) {
  const card = testCardFor(input.number);
  if (!card) return cardError('incorrect_number', 'Your card number is incorrect.', 'card[number]');
  if (!(input.exp_month >= 1 && input.exp_month <= 12)) {
    return cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'card[exp_month]');
  }
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  const date = new Date(now * 1000);
  const thisMonth = date.getUTCFullYear() * 12 + date.getUTCMonth();
  if (year * 12 + input.exp_month - 1 < thisMonth || year > date.getUTCFullYear() + 50) {
    return cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'card[exp_year]');
  }
  if (input.cvc !== undefined && !/^\d{3,4}$/.test(input.cvc)) {
    return cardError('invalid_cvc', "Your card's security code is invalid.", 'card[cvc]');
  }
  return { ...card, exp_month: input.exp_month, exp_year: year };
}

function cardFields(
  card: { number: string; brand: string; exp_month: number; exp_year: number },
  cvc?: string,
) {
  return {
    brand: card.brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: cvc ? 'pass' : null },
    country: 'US',
    display_brand: card.brand,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    fingerprint: Buffer.from(card.number).toString('base64url').slice(-16),
    funding: 'credit',
    last4: card.number.slice(-4),
    networks: { available: [card.brand], preferred: null },
    three_d_secure_usage: { supported: true },
    wallet: null,
  };
}

const BILLING = ['email', 'name', 'phone'] as const;

function billingDetails(params: FormParams) {
  const given = params.object('billing_details');
  return {
    address: given?.record('address', ADDRESS) ?? Object.fromEntries(ADDRESS.map((k) => [k, null])),
    email: given?.string('email') || null,
    name: given?.string('name') || null,
    phone: given?.string('phone') || null,
  };
}

async function newPaymentMethod(
  ctx: OperationContext,
  card: CardInput,
  extra: { billing_details?: object; metadata?: Record<string, string> } = {},
): Promise<StoredObject> {
  const checked = checkedCard(card, ctx.now());
  if (checked instanceof LocalStripeError) throw checked;
  const data: StripeObject = {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: extra.billing_details ?? {
      address: Object.fromEntries(ADDRESS.map((k) => [k, null])),
      ...Object.fromEntries(BILLING.map((k) => [k, null])),
    },
    card: cardFields(checked, card.cvc),
    created: ctx.now(),
    customer: null,
    livemode: false,
    metadata: extra.metadata ?? {},
    type: 'card',
  };
  const internal = { behaviour: checked.behaviour, set_up: false };
  await ctx.save(data, internal);
  return { data, internal };
}

/**
 * A payment method by id, where Stripe's test ids (`pm_card_visa`...) make a new one each time,
 * as in Stripe's test mode.
 */
export async function resolvePaymentMethod(
  ctx: OperationContext,
  id: string,
  param: string,
): Promise<StoredObject> {
  const testNumber = TEST_PAYMENT_METHODS.get(id);
  if (testNumber) {
    const year = new Date().getUTCFullYear() + 5;
    return newPaymentMethod(ctx, { number: testNumber, exp_month: 12, exp_year: year });
  }
  const found = await objectStore.get(ctx.db, id, true);
  if (found?.data.object !== 'payment_method') throw noSuchObject('PaymentMethod', id, param);
  return found;
}

/** Attaching validates the card, so cards declined outright cannot be attached (as on Stripe). */
export async function attach(ctx: OperationContext, pm: StoredObject, customerId: string): Promise<void> {
  if (pm.data.customer === customerId) return;
  if (pm.data.customer) {
    throw invalidRequest(
      'The payment method you provided has already been attached to a customer.',
      'payment_method',
      'payment_method_unexpected_state',
    );
  }
  await ctx.find('customer', customerId, 'customer');
  const behaviour = pm.internal.behaviour;
  if (behaviour === 'declined' || behaviour === 'insufficient_funds') {
    const decline = DECLINES[behaviour];
    throw new LocalStripeError(402, { type: 'card_error', ...decline, param: '' });
  }
  pm.data.customer = customerId;
  await ctx.save(pm.data, pm.internal);
  ctx.emit('payment_method.attached', pm.data);
}

function cardInput(params: FormParams): CardInput {
  const card = params.object('card');
  if (!card) throw invalidRequest('Missing required param: card.', 'card', 'parameter_missing');
  return {
    number: card.requiredString('number'),
    exp_month: card.integer('exp_month') ?? 0,
    exp_year: card.integer('exp_year') ?? 0,
    cvc: card.string('cvc'),
  };
}

const createPaymentMethod: Operation = async (ctx, params) => {
  const type = params.string('type') ?? 'card';
  if (type !== 'card')
    throw invalidRequest(`The built-in payment provider takes cards only, not ${type}.`, 'type');
  const token = params.object('card')?.string('token');
  const card = token ? await cardOfToken(ctx, token) : cardInput(params);
  const pm = await newPaymentMethod(ctx, card, {
    billing_details: billingDetails(params),
    metadata: params.metadata(),
  });
  return pm.data;
};

const retrievePaymentMethod: Operation = async (ctx, _params, [id]) =>
  (await resolvePaymentMethod(ctx, id!, 'id')).data;

const attachPaymentMethod: Operation = async (ctx, params, [id]) => {
  const pm = await resolvePaymentMethod(ctx, id!, 'payment_method');
  await attach(ctx, pm, params.requiredString('customer'));
  return pm.data;
};

const updatePaymentMethod: Operation = async (ctx, params, [id]) => {
  const pm = await resolvePaymentMethod(ctx, id!, 'id');
  const before = structuredClone(pm.data);
  if (params.has('billing_details')) {
    const given = billingDetails(params);
    const current = pm.data.billing_details as Record<string, unknown>;
    const details = params.object('billing_details')!;
    pm.data.billing_details = Object.fromEntries(
      Object.entries(given).map(([k, v]) => [k, details.has(k) ? v : current[k]]),
    );
  }
  const card = params.object('card');
  if (card) {
    const current = pm.data.card as Record<string, unknown>;
    pm.data.card = {
      ...current,
      exp_month: card.integer('exp_month') ?? current.exp_month,
      exp_year: card.integer('exp_year') ?? current.exp_year,
    };
  }
  pm.data.metadata = params.metadata(pm.data.metadata as Record<string, string>);
  await ctx.save(pm.data, pm.internal);
  ctx.emit('payment_method.updated', pm.data, changedFields(before, pm.data));
  return pm.data;
};

const detachPaymentMethod: Operation = async (ctx, _params, [id]) => {
  const pm = await resolvePaymentMethod(ctx, id!, 'payment_method');
  const customerId = pm.data.customer;
  if (typeof customerId !== 'string') {
    throw invalidRequest(
      'The payment method you provided is not attached to a customer so detachment is impossible.',
      'payment_method',
      'payment_method_unexpected_state',
    );
  }
  const customer = await objectStore.get(ctx.db, customerId, true);
  const settings = customer?.data.invoice_settings as { default_payment_method?: string | null } | undefined;
  if (customer && settings?.default_payment_method === pm.data.id) {
    customer.data.invoice_settings = { ...settings, default_payment_method: null };
    await ctx.save(customer.data, customer.internal);
  }
  pm.data.customer = null;
  await ctx.save(pm.data, pm.internal);
  ctx.emit('payment_method.detached', pm.data, { customer: customerId });
  return pm.data;
};

const listPaymentMethods: Operation = async (ctx, params, [customerInPath]) => {
  const customer = customerInPath ?? params.string('customer');
  if (customer) await ctx.find('customer', customer, 'customer');
  const page = await objectStore.list(ctx.db, 'payment_method', customer ? { customer } : {}, pageOf(params));
  const url = customerInPath ? `/v1/customers/${customerInPath}/payment_methods` : '/v1/payment_methods';
  return listOf(url, page);
};

// ---- tokens (Stripe.js createToken) ----

/** A Map, read with the caller's id (as `TEST_PAYMENT_METHODS`). */
const TEST_TOKENS: ReadonlyMap<string, string> = new Map([
  ['tok_visa', '4242424242424242'],
  ['tok_chargeDeclined', '4000000000000002'],
  ['tok_chargeDeclinedInsufficientFunds', '4000000000009995'],
]);

async function cardOfToken(ctx: OperationContext, id: string): Promise<CardInput> {
  const testNumber = TEST_TOKENS.get(id);
  if (testNumber) return { number: testNumber, exp_month: 12, exp_year: new Date().getUTCFullYear() + 5 };
  const token = await ctx.find('token', id, 'card[token]');
  if (token.data.used)
    throw invalidRequest(
      `You cannot use a Stripe token more than once: ${id}.`,
      'card[token]',
      'token_already_used',
    );
  token.data.used = true;
  await ctx.save(token.data, token.internal);
  return token.internal.card as CardInput;
}

const createToken: Operation = async (ctx, params) => {
  const card = cardInput(params);
  const checked = checkedCard(card, ctx.now());
  if (checked instanceof LocalStripeError) throw checked;
  const data: StripeObject = {
    id: newId('tok'),
    object: 'token',
    card: { id: newId('card'), object: 'card', ...cardFields(checked, card.cvc) },
    client_ip: null,
    created: ctx.now(),
    livemode: false,
    type: 'card',
    used: false,
  };
  await ctx.save(data, { card });
  return data;
};

export function changedFields(before: StripeObject, after: StripeObject): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = before[key] ?? null;
  }
  return changed;
}

export const customerOperations = {
  createCustomer,
  retrieveCustomer,
  updateCustomer,
  deleteCustomer,
  listCustomers,
  searchCustomers,
  createPaymentMethod,
  retrievePaymentMethod,
  updatePaymentMethod,
  attachPaymentMethod,
  detachPaymentMethod,
  listPaymentMethods,
  createToken,
};
