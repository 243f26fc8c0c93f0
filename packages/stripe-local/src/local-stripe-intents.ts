import type { FormParams } from './form-params.js';
import type { Operation, OperationContext } from './local-stripe-context.js';
import { attach, resolvePaymentMethod } from './local-stripe-customers.js';
import { newClientSecret, newId } from './local-stripe-ids.js';
import { listOf, pageOf } from './local-stripe-list.js';
import { objectStore, type StoredObject, type StripeObject } from './local-stripe-store.js';
import { invalidRequest, LocalStripeError, noSuchObject } from './stripe-error.js';
import { DECLINES } from './test-cards.js';

// Over 500 lines, kept whole: payment intents and setup intents go through the same card outcomes,
// 3-D Secure step and caller checks (the helpers at the top), and the customer's 3-D Secure answer
// (`authenticate`) settles either kind, and the invoice a payment intent pays.

type Outcome =
  | { kind: 'succeeded' }
  | { kind: 'requires_action' }
  | { kind: 'declined'; decline: keyof typeof DECLINES };

/**
 * What the card does with this attempt, as Stripe's test cards do: 3-D Secure cards ask the
 * customer when present and are refused (`authentication_required`) off-session, except a card
 * set up for later use, which then pays off-session without asking.
 */
function outcomeOf(pm: StoredObject, intent: StoredObject, offSession: boolean, charging: boolean): Outcome {
  const behaviour = pm.internal.behaviour;
  if (intent.internal.authenticated === pm.data.id) return { kind: 'succeeded' };
  if (behaviour === 'declined' || behaviour === 'insufficient_funds')
    return { kind: 'declined', decline: behaviour };
  if (behaviour === 'declined_after_attach' && charging) return { kind: 'declined', decline: 'declined' };
  const needsAuthentication =
    behaviour === 'authentication_required' ||
    (behaviour === 'authentication_required_on_setup' && !(charging && offSession && pm.internal.set_up));
  if (!needsAuthentication) return { kind: 'succeeded' };
  return offSession ? { kind: 'declined', decline: 'authentication_required' } : { kind: 'requires_action' };
}

/** The next action a browser takes: Stripe.js opens the authentication page, or the customer is redirected to it. */
function nextAction(ctx: OperationContext, intentId: string, returnUrl: string | null) {
  const page = `${ctx.publicUrl()}/authenticate/${intentId}`;
  return returnUrl
    ? {
        type: 'redirect_to_url',
        redirect_to_url: {
          url: `${page}?return_url=${encodeURIComponent(returnUrl)}`,
          return_url: returnUrl,
        },
      }
    : { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: page } };
}

function cardErrorOf(decline: keyof typeof DECLINES, pm: StripeObject) {
  const { code, message, ...rest } = DECLINES[decline] as {
    code: string;
    message: string;
    decline_code?: string;
  };
  return { type: 'card_error' as const, code, ...rest, message, payment_method: pm };
}

/** A browser holding the publishable key reaches an intent only with its client secret, as on Stripe. */
function checkCaller(ctx: OperationContext, intent: StripeObject, params: FormParams) {
  if (ctx.caller === 'secret') return;
  const secret = params.string('client_secret');
  if (!secret || secret !== intent.client_secret) {
    throw invalidRequest(
      'The client_secret provided does not match the client_secret associated with the intent.',
      'client_secret',
    );
  }
}

/** What a publishable key may see of an intent. */
function forCaller(ctx: OperationContext, intent: StripeObject): StripeObject {
  if (ctx.caller === 'secret') return intent;
  const { customer: _c, metadata: _m, description: _d, ...visible } = intent;
  return visible as StripeObject;
}

/** The bank wants 3-D Secure: the intent waits for the customer on the authentication page. */
async function awaitAuthentication(
  ctx: OperationContext,
  intent: StoredObject,
  returnUrl: string | null,
  at?: number,
): Promise<void> {
  const { data } = intent;
  Object.assign(data, {
    status: 'requires_action',
    next_action: nextAction(ctx, String(data.id), returnUrl),
  });
  await ctx.save(data, intent.internal);
  ctx.emit(`${data.object}.requires_action`, data, undefined, at);
}

const paymentMethodTypes = (params: FormParams): string[] =>
  params.strings('payment_method_types').length ? params.strings('payment_method_types') : ['card'];

/**
 * Saves a new payment or setup intent and tells of it (`payment_intent.created`). Given a
 * `payment_method`, the intent holds it and waits for confirmation.
 */
async function saveNewIntent(
  ctx: OperationContext,
  params: FormParams,
  intent: StripeObject,
): Promise<StoredObject> {
  const pmId = params.string('payment_method');
  if (pmId) {
    intent.payment_method = (await resolvePaymentMethod(ctx, pmId, 'payment_method')).data.id;
    intent.status = 'requires_confirmation';
  }
  await ctx.save(intent);
  ctx.emit(`${intent.object}.created`, intent);
  return { data: intent, internal: {} };
}

// ---- payment intents ----

const createPaymentIntent: Operation = async (ctx, params) => {
  const amount = params.integer('amount');
  if (amount === undefined)
    throw invalidRequest('Missing required param: amount.', 'amount', 'parameter_missing');
  const currency = params.requiredString('currency').toLowerCase();
  if (amount < 50) {
    throw invalidRequest('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
  }
  const customer = params.string('customer') || null;
  if (customer) await ctx.find('customer', customer, 'customer');
  const id = newId('pi');
  const intent: StripeObject = {
    id,
    object: 'payment_intent',
    amount,
    amount_capturable: 0,
    amount_received: 0,
    canceled_at: null,
    capture_method: 'automatic',
    client_secret: newClientSecret(id),
    confirmation_method: 'automatic',
    created: ctx.now(),
    currency,
    customer,
    description: params.string('description') || null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: params.metadata(),
    next_action: null,
    payment_method: null,
    payment_method_types: paymentMethodTypes(params),
    receipt_email: params.string('receipt_email') || null,
    setup_future_usage: params.string('setup_future_usage') || null,
    status: 'requires_payment_method',
  };
  const stored = await saveNewIntent(ctx, params, intent);
  if (params.boolean('confirm')) return confirmIntent(ctx, stored, params);
  if (params.has('off_session')) {
    throw invalidRequest('You can only use `off_session` when `confirm=true`.', 'off_session');
  }
  return intent;
};

/** Creates and confirms the intent that pays an invoice: used by subscriptions. */
export async function payInvoice(
  ctx: OperationContext,
  invoice: StripeObject,
  pmId: string | null,
  offSession: boolean,
): Promise<StoredObject> {
  const id = newId('pi');
  const intent: StripeObject = {
    id,
    object: 'payment_intent',
    amount: invoice.amount_due,
    amount_received: 0,
    client_secret: newClientSecret(id),
    created: ctx.now(),
    currency: invoice.currency,
    customer: invoice.customer,
    description: `Subscription ${invoice.billing_reason === 'subscription_create' ? 'creation' : 'update'}`,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: {},
    next_action: null,
    payment_method: pmId,
    payment_method_types: ['card'],
    status: pmId ? 'requires_confirmation' : 'requires_payment_method',
  };
  const stored: StoredObject = { data: intent, internal: { invoice: invoice.id } };
  await ctx.save(intent, stored.internal);
  // Stripe shows it only when asked: `expand[]=latest_invoice.confirmation_secret`.
  const bill = await ctx.find('invoice', String(invoice.id));
  bill.internal.confirmation_secret = { client_secret: intent.client_secret, type: 'payment_intent' };
  bill.internal.payment_intent = id;
  await ctx.save(bill.data, bill.internal);
  if (pmId) await runConfirmation(ctx, stored, offSession, null);
  return stored;
}

const CONFIRMABLE = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

async function runConfirmation(
  ctx: OperationContext,
  intent: StoredObject,
  offSession: boolean,
  returnUrl: string | null,
): Promise<LocalStripeError | null> {
  const data = intent.data;
  const pm = await resolvePaymentMethod(ctx, String(data.payment_method), 'payment_method');
  data.payment_method = pm.data.id;
  if (data.customer && pm.data.customer && pm.data.customer !== data.customer) {
    throw invalidRequest(
      'The provided PaymentMethod belongs to another customer.',
      'payment_method',
      'payment_method_unexpected_state',
    );
  }
  const outcome = outcomeOf(pm, intent, offSession, true);
  const at = await ctx.clockNow(data.customer as string | null);
  if (outcome.kind === 'succeeded') {
    const charge: StripeObject = {
      id: newId('ch'),
      object: 'charge',
      amount: data.amount,
      amount_captured: data.amount,
      amount_refunded: 0,
      captured: true,
      created: at,
      currency: data.currency,
      customer: data.customer,
      description: data.description ?? null,
      livemode: false,
      outcome: {
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'normal',
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      paid: true,
      payment_intent: data.id,
      payment_method: pm.data.id,
      refunded: false,
      status: 'succeeded',
    };
    await ctx.save(charge);
    Object.assign(data, {
      status: 'succeeded',
      amount_received: data.amount,
      latest_charge: charge.id,
      next_action: null,
      last_payment_error: null,
    });
    if (data.setup_future_usage && data.customer) {
      await attach(ctx, pm, String(data.customer));
      pm.internal.set_up = true;
      await ctx.save(pm.data, pm.internal);
    }
    await ctx.save(data, intent.internal);
    ctx.emit('charge.succeeded', charge, undefined, at);
    ctx.emit('payment_intent.succeeded', data, undefined, at);
    if (typeof intent.internal.invoice === 'string') await markInvoicePaid(ctx, intent.internal.invoice, at);
    return null;
  }
  if (outcome.kind === 'requires_action') {
    await awaitAuthentication(ctx, intent, returnUrl, at);
    return null;
  }
  const error = cardErrorOf(outcome.decline, pm.data);
  Object.assign(data, {
    status: 'requires_payment_method',
    next_action: null,
    last_payment_error: error,
  });
  await ctx.save(data, intent.internal);
  ctx.emit('payment_intent.payment_failed', data, undefined, at);
  if (typeof intent.internal.invoice === 'string') await markInvoiceFailed(ctx, intent.internal.invoice, at);
  return new LocalStripeError(402, { ...error, payment_intent: forCaller(ctx, data) });
}

async function confirmIntent(
  ctx: OperationContext,
  intent: StoredObject,
  params: FormParams,
): Promise<StripeObject> {
  const data = intent.data;
  if (!CONFIRMABLE.has(String(data.status))) {
    throw new LocalStripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: `You cannot confirm this PaymentIntent because it has a status of ${data.status}.`,
      payment_intent: forCaller(ctx, data),
    });
  }
  const pmId = params.string('payment_method');
  if (pmId) data.payment_method = (await resolvePaymentMethod(ctx, pmId, 'payment_method')).data.id;
  if (!data.payment_method) {
    throw invalidRequest(
      "You cannot confirm this PaymentIntent because it's missing a payment method. Update the PaymentIntent with a payment method and then confirm it again.",
      'payment_method',
      'payment_intent_unexpected_state',
    );
  }
  const future = params.string('setup_future_usage');
  if (future) data.setup_future_usage = future;
  const offSession = params.boolean('off_session') ?? params.string('off_session') === 'one_off';
  const refused = await runConfirmation(ctx, intent, offSession, params.string('return_url') || null);
  if (refused) throw new CommittedError(refused);
  return forCaller(ctx, data);
}

/** A refusal whose effects (a failed attempt, its events) are kept: answered after the commit. */
export class CommittedError extends Error {
  constructor(readonly error: LocalStripeError) {
    super(error.message);
  }
}

/** A payment or setup intent, once `checkCaller` lets the caller see it. */
async function findForCaller(
  ctx: OperationContext,
  kind: 'payment_intent' | 'setup_intent',
  id: string,
  params: FormParams,
): Promise<StoredObject> {
  const intent = await ctx.find(kind, id);
  checkCaller(ctx, intent.data, params);
  return intent;
}

/** GET of a payment or setup intent, as `forCaller` shows it. */
const retrieveForCaller =
  (kind: 'payment_intent' | 'setup_intent'): Operation =>
  async (ctx, params, [id]) =>
    forCaller(ctx, (await findForCaller(ctx, kind, id!, params)).data);

const confirmPaymentIntent: Operation = async (ctx, params, [id]) =>
  confirmIntent(ctx, await findForCaller(ctx, 'payment_intent', id!, params), params);

const retrievePaymentIntent = retrieveForCaller('payment_intent');

const cancelPaymentIntent: Operation = async (ctx, params, [id]) => {
  const intent = await ctx.find('payment_intent', id!);
  if (!CONFIRMABLE.has(String(intent.data.status))) {
    throw invalidRequest(
      `You cannot cancel this PaymentIntent because it has a status of ${intent.data.status}.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  }
  Object.assign(intent.data, {
    status: 'canceled',
    canceled_at: ctx.now(),
    cancellation_reason: params.string('cancellation_reason') ?? null,
    next_action: null,
  });
  await ctx.save(intent.data, intent.internal);
  ctx.emit('payment_intent.canceled', intent.data);
  return intent.data;
};

const listPaymentIntents: Operation = async (ctx, params) => {
  const customer = params.string('customer');
  return listOf(
    '/v1/payment_intents',
    await objectStore.list(ctx.db, 'payment_intent', customer ? { customer } : {}, pageOf(params)),
  );
};

const retrieveCharge: Operation = async (ctx, _params, [id]) => (await ctx.find('charge', id!)).data;

// ---- setup intents ----

const createSetupIntent: Operation = async (ctx, params) => {
  const customer = params.string('customer') || null;
  if (customer) await ctx.find('customer', customer, 'customer');
  const id = newId('seti');
  const intent: StripeObject = {
    id,
    object: 'setup_intent',
    cancellation_reason: null,
    client_secret: newClientSecret(id),
    created: ctx.now(),
    customer,
    description: params.string('description') || null,
    last_setup_error: null,
    livemode: false,
    metadata: params.metadata(),
    next_action: null,
    payment_method: null,
    payment_method_types: paymentMethodTypes(params),
    status: 'requires_payment_method',
    usage: params.string('usage') || 'off_session',
  };
  const stored = await saveNewIntent(ctx, params, intent);
  return params.boolean('confirm') ? confirmSetup(ctx, stored, params) : intent;
};

async function runSetup(
  ctx: OperationContext,
  intent: StoredObject,
  returnUrl: string | null,
): Promise<LocalStripeError | null> {
  const data = intent.data;
  const pm = await resolvePaymentMethod(ctx, String(data.payment_method), 'payment_method');
  data.payment_method = pm.data.id;
  const outcome = outcomeOf(pm, intent, false, false);
  if (outcome.kind === 'succeeded') {
    if (data.customer) await attach(ctx, pm, String(data.customer));
    pm.internal.set_up = true;
    await ctx.save(pm.data, pm.internal);
    Object.assign(data, { status: 'succeeded', next_action: null, last_setup_error: null });
    await ctx.save(data, intent.internal);
    ctx.emit('setup_intent.succeeded', data);
    return null;
  }
  if (outcome.kind === 'requires_action') {
    await awaitAuthentication(ctx, intent, returnUrl);
    return null;
  }
  const error = cardErrorOf(outcome.decline, pm.data);
  Object.assign(data, { status: 'requires_payment_method', next_action: null, last_setup_error: error });
  await ctx.save(data, intent.internal);
  ctx.emit('setup_intent.setup_failed', data);
  return new LocalStripeError(402, { ...error, setup_intent: forCaller(ctx, data) });
}

async function confirmSetup(
  ctx: OperationContext,
  intent: StoredObject,
  params: FormParams,
): Promise<StripeObject> {
  if (!CONFIRMABLE.has(String(intent.data.status))) {
    throw invalidRequest(
      `You cannot confirm this SetupIntent because it has a status of ${intent.data.status}.`,
      undefined,
      'setup_intent_unexpected_state',
    );
  }
  const pmId = params.string('payment_method');
  if (pmId) intent.data.payment_method = (await resolvePaymentMethod(ctx, pmId, 'payment_method')).data.id;
  if (!intent.data.payment_method)
    throw invalidRequest('Missing required param: payment_method.', 'payment_method', 'parameter_missing');
  const refused = await runSetup(ctx, intent, params.string('return_url') || null);
  if (refused) throw new CommittedError(refused);
  return forCaller(ctx, intent.data);
}

const confirmSetupIntent: Operation = async (ctx, params, [id]) =>
  confirmSetup(ctx, await findForCaller(ctx, 'setup_intent', id!, params), params);

const retrieveSetupIntent = retrieveForCaller('setup_intent');

/**
 * The customer's answer on the authentication page (Stripe's "Complete" / "Fail" test page):
 * completing runs the attempt again as authenticated; failing leaves the intent needing a new
 * payment method, with Stripe's `payment_intent_authentication_failure`.
 */
export async function authenticate(
  ctx: OperationContext,
  intentId: string,
  approve: boolean,
): Promise<StripeObject> {
  const found = await objectStore.get(ctx.db, intentId, true);
  if (!found || (found.data.object !== 'payment_intent' && found.data.object !== 'setup_intent')) {
    throw noSuchObject('intent', intentId);
  }
  const { data } = found;
  if (data.status !== 'requires_action') return data;
  const setup = data.object === 'setup_intent';
  if (approve) {
    found.internal.authenticated = data.payment_method;
    await (setup ? runSetup(ctx, found, null) : runConfirmation(ctx, found, false, null));
    return data;
  }
  const error = { type: 'invalid_request_error', ...DECLINES.authentication_failed };
  Object.assign(data, {
    status: 'requires_payment_method',
    next_action: null,
    [setup ? 'last_setup_error' : 'last_payment_error']: error,
  });
  await ctx.save(data, found.internal);
  ctx.emit(setup ? 'setup_intent.setup_failed' : 'payment_intent.payment_failed', data);
  if (!setup && typeof found.internal.invoice === 'string')
    await markInvoiceFailed(ctx, found.internal.invoice, ctx.now());
  return data;
}

// ---- invoices settled by their payment ----

async function markInvoicePaid(ctx: OperationContext, invoiceId: string, at: number) {
  const invoice = await ctx.find('invoice', invoiceId);
  Object.assign(invoice.data, {
    status: 'paid',
    amount_paid: invoice.data.amount_due,
    amount_remaining: 0,
    attempt_count: Number(invoice.data.attempt_count ?? 0) + 1,
    attempted: true,
    status_transitions: { ...(invoice.data.status_transitions as object), paid_at: at },
  });
  await ctx.save(invoice.data, invoice.internal);
  ctx.emit('invoice.paid', invoice.data, undefined, at);
  ctx.emit('invoice.payment_succeeded', invoice.data, undefined, at);
  const subscriptionId = subscriptionOf(invoice.data);
  if (!subscriptionId) return;
  const subscription = await ctx.find('subscription', subscriptionId);
  if (subscription.data.status === 'incomplete' || subscription.data.status === 'past_due') {
    const previous = subscription.data.status;
    subscription.data.status = 'active';
    await ctx.save(subscription.data, subscription.internal, subscription.internal.due_at as number);
    ctx.emit('customer.subscription.updated', subscription.data, { status: previous }, at);
  }
}

async function markInvoiceFailed(ctx: OperationContext, invoiceId: string, at: number) {
  const invoice = await ctx.find('invoice', invoiceId);
  invoice.data.attempt_count = Number(invoice.data.attempt_count ?? 0) + 1;
  invoice.data.attempted = true;
  await ctx.save(invoice.data, invoice.internal);
  ctx.emit('invoice.payment_failed', invoice.data, undefined, at);
  const subscriptionId = subscriptionOf(invoice.data);
  if (!subscriptionId) return;
  const subscription = await ctx.find('subscription', subscriptionId);
  if (subscription.data.status === 'active') {
    subscription.data.status = 'past_due';
    await ctx.save(subscription.data, subscription.internal, subscription.internal.due_at as number);
    ctx.emit('customer.subscription.updated', subscription.data, { status: 'active' }, at);
  }
}

export const subscriptionOf = (invoice: StripeObject): string | null =>
  (invoice.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details
    ?.subscription ?? null;

export const intentOperations = {
  createPaymentIntent,
  confirmPaymentIntent,
  retrievePaymentIntent,
  cancelPaymentIntent,
  listPaymentIntents,
  retrieveCharge,
  createSetupIntent,
  confirmSetupIntent,
  retrieveSetupIntent,
};
