import type { Mailer } from '../mail/mailer.js';
import type { PurchaseGrant } from './purchase-ledger.js';

/** One receipt per purchase, sent when the purchase is first recorded (never for a replay). */
export async function sendReceipt(mailer: Mailer, to: string, grant: PurchaseGrant): Promise<void> {
  const amount = `$${(grant.amountCents / 100).toFixed(2)}`;
  const credits = grant.credits + grant.bonusCredits;
  const what = grant.unlimited
    ? grant.unlimited.days === null
      ? 'unlimited checks for the month'
      : `unlimited checks for ${grant.unlimited.days} day${grant.unlimited.days === 1 ? '' : 's'}`
    : `${credits.toLocaleString('en-US')} credits${grant.bonusCredits > 0 ? ` (including a ${grant.bonusCredits.toLocaleString('en-US')}-credit bonus)` : ''}`;
  await mailer.send({
    kind: 'receipt',
    to,
    subject: `Your Scrub receipt: ${grant.autoTopUp ? 'auto top-up, ' : ''}${grant.planName}, ${amount}`,
    text: [
      grant.autoTopUp
        ? 'Your balance fell below your auto top-up threshold, so your default card was charged.'
        : 'Thank you for your purchase.',
      '',
      `Plan: ${grant.planName} (${grant.planReference})`,
      `Amount: ${amount} USD`,
      `You received: ${what}`,
      `Payment reference: ${grant.providerObjectId}`,
      '',
      'Credits are non-refundable. Subscriptions renew monthly; cancel at least 24 hours before renewal.',
    ].join('\n'),
  });
}
