import type { Operation } from './local-stripe-context.js';
import { newId } from './local-stripe-ids.js';
import { listOf, pageOf } from './local-stripe-list.js';
import { objectStore, type StripeObject } from './local-stripe-store.js';
import { invalidRequest, missingParam } from './stripe-error.js';

const REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * `POST /v1/refunds`: gives back all or part of what a charge took (named by `payment_intent` or
 * `charge`), as Stripe does: the charge's `amount_refunded` and `refunded` move, and the events
 * `refund.created` and `charge.refunded` are sent. More than is left unrefunded is refused.
 */
const createRefund: Operation = async (ctx, params) => {
  const intentId = params.string('payment_intent');
  const chargeParam = params.string('charge');
  if (!intentId && !chargeParam) throw missingParam('payment_intent');
  let chargeId = chargeParam;
  if (intentId) {
    const intent = await ctx.find('payment_intent', intentId, 'payment_intent');
    if (intent.data.status !== 'succeeded' || typeof intent.data.latest_charge !== 'string') {
      throw invalidRequest(
        `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        'payment_intent',
        'charge_not_refundable',
      );
    }
    chargeId = intent.data.latest_charge;
  }
  const charge = await ctx.find('charge', String(chargeId), 'charge');
  const data = charge.data;
  const paid = Number(data.amount);
  const left = paid - Number(data.amount_refunded ?? 0);
  if (left <= 0) {
    throw invalidRequest(
      `Charge ${data.id} has already been refunded.`,
      undefined,
      'charge_already_refunded',
    );
  }
  const amount = params.integer('amount') ?? left;
  if (amount < 1) throw invalidRequest('Invalid positive integer', 'amount', 'parameter_invalid_integer');
  if (amount > left) {
    throw invalidRequest(
      `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
      'amount',
      'amount_too_large',
    );
  }
  const reason = params.string('reason') || null;
  if (reason && !REASONS.has(reason)) {
    throw invalidRequest(
      `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`,
      'reason',
    );
  }
  const at = await ctx.clockNow(data.customer as string | null);
  const refund: StripeObject = {
    id: newId('re'),
    object: 'refund',
    amount,
    balance_transaction: null,
    charge: data.id,
    created: at,
    currency: data.currency,
    metadata: params.metadata(),
    payment_intent: data.payment_intent ?? null,
    reason,
    receipt_number: null,
    status: 'succeeded',
  };
  await ctx.save(refund);
  data.amount_refunded = paid - left + amount;
  data.refunded = data.amount_refunded === paid;
  await ctx.save(data, charge.internal);
  ctx.emit('refund.created', refund, undefined, at);
  ctx.emit('charge.refunded', data, { amount_refunded: paid - left, refunded: false }, at);
  return refund;
};

const retrieveRefund: Operation = async (ctx, _params, [id]) => (await ctx.find('refund', id!)).data;

/** Newest first; `payment_intent=` or `charge=` narrows to one payment's refunds. */
const listRefunds: Operation = async (ctx, params) => {
  const paymentIntent = params.string('payment_intent');
  const charge = params.string('charge');
  return listOf(
    '/v1/refunds',
    await objectStore.list(
      ctx.db,
      'refund',
      { ...(paymentIntent ? { paymentIntent } : {}), ...(charge ? { charge } : {}) },
      pageOf(params),
    ),
  );
};

export const refundOperations = { createRefund, retrieveRefund, listRefunds };
