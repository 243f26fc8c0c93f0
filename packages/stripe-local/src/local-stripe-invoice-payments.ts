import type { Operation, OperationContext } from './local-stripe-context.js';
import { listOf } from './local-stripe-list.js';
import type { StoredObject, StripeObject } from './local-stripe-store.js';
import { invalidRequest } from './stripe-error.js';

const STATUS: Record<string, string> = { succeeded: 'paid', canceled: 'canceled' };

/** The payment of an invoice, as Stripe's `invoice_payment` shows it: one per invoice here. */
function invoicePaymentOf(invoice: StripeObject, intent: StripeObject): StripeObject {
  const status = STATUS[String(intent.status)] ?? 'open';
  const transitions = invoice.status_transitions as { paid_at?: number | null } | undefined;
  return {
    id: `inpay_${String(intent.id).slice(3)}`,
    object: 'invoice_payment',
    amount_paid: status === 'paid' ? intent.amount : null,
    amount_requested: intent.amount,
    created: intent.created,
    currency: intent.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intent.id },
    status,
    status_transitions: {
      canceled_at: null,
      paid_at: status === 'paid' ? (transitions?.paid_at ?? null) : null,
    },
  };
}

async function paymentOfInvoice(ctx: OperationContext, invoice: StoredObject) {
  const intentId = invoice.internal.payment_intent;
  if (typeof intentId !== 'string') return [];
  const intent = await ctx.find('payment_intent', intentId);
  return [invoicePaymentOf(invoice.data, intent.data)];
}

/**
 * `GET /v1/invoice_payments`: how an invoice was paid, found by the invoice (`invoice=`) or by its
 * payment (`payment[type]=payment_intent&payment[payment_intent]=`), as on Stripe. This is how a
 * subscription invoice's payment intent is found (to refund it), and an intent's invoice.
 */
const listInvoicePayments: Operation = async (ctx, params) => {
  const invoiceId = params.string('invoice');
  const payment = params.object('payment');
  const intentId = payment?.string('payment_intent');
  if (!invoiceId && !intentId)
    throw invalidRequest('Pass `invoice` or `payment[payment_intent]`.', 'invoice');
  let data: StripeObject[] = [];
  if (invoiceId) {
    data = await paymentOfInvoice(ctx, await ctx.find('invoice', invoiceId, 'invoice'));
  } else if (intentId) {
    const intent = await ctx.find('payment_intent', intentId, 'payment[payment_intent]');
    const billed = intent.internal.invoice;
    if (typeof billed === 'string') data = await paymentOfInvoice(ctx, await ctx.find('invoice', billed));
  }
  if (intentId)
    data = data.filter((row) => (row.payment as { payment_intent: string }).payment_intent === intentId);
  return listOf('/v1/invoice_payments', { data, has_more: false });
};

export const invoicePaymentOperations = { listInvoicePayments };
