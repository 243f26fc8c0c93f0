import type { Mailer } from '../mail/mailer.js';
import type { RecordedRefund } from './refund-ledger.js';

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const passLines = ({ pass }: RecordedRefund) =>
  !pass
    ? []
    : pass.ended
      ? ['Your unlimited pass has ended with this refund: checks are charged in credits again.']
      : [`The refunded pass's ${pass.days} days came off your unlimited pass.`];

/** One receipt per refund, sent when the refund is first recorded (never for a redelivered webhook). */
export async function sendRefundReceipt(mailer: Mailer, refund: RecordedRefund): Promise<void> {
  const credits =
    refund.creditsShortfall > 0
      ? `${refund.creditsTaken.toLocaleString('en-US')} credits were taken back (${refund.creditsShortfall.toLocaleString('en-US')} more had already been used).`
      : `${refund.creditsTaken.toLocaleString('en-US')} credits were taken back.`;
  await mailer.send({
    kind: 'refund',
    to: refund.email,
    subject: `Your Scrub refund: ${refund.planName}, ${money(refund.amountCents)}`,
    text: [
      `We refunded ${money(refund.amountCents)} of your ${refund.planName} purchase (${money(refund.purchaseCents)}) to your card.`,
      '',
      `Reason: ${refund.reason}`,
      credits,
      ...passLines(refund),
      `Refunded so far for this purchase: ${money(refund.refundedCents)}`,
      `Refund reference: ${refund.refundId}`,
      '',
      'Refunds reach your card in 5 to 10 business days.',
    ].join('\n'),
  });
}
