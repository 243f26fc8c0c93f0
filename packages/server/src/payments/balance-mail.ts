import type { Mailer } from '../mail/mailer.js';

const credits = (n: number) => n.toLocaleString('en-US');

/** The low-balance e-mail: sent once each time the balance falls below the customer's threshold. */
export async function sendLowBalanceMail(
  mailer: Mailer,
  to: string,
  balance: number,
  threshold: number,
  dashboardUrl: string,
): Promise<void> {
  await mailer.send({
    kind: 'low_balance',
    to,
    subject: `Your Scrub balance is low: ${credits(balance)} credits`,
    text: [
      `Your balance is ${credits(balance)} credits, below the ${credits(threshold)} you asked to be told about.`,
      '',
      `Add credits: ${dashboardUrl}/purchase`,
      `Change this e-mail or set up auto top-up: ${dashboardUrl}/accountInfo`,
      '',
      'This e-mail is sent once each time the balance falls below your threshold.',
    ].join('\n'),
  });
}

/** Auto top-up's card was refused: it stopped, and says how to start it again. */
export async function sendTopUpDeclinedMail(
  mailer: Mailer,
  to: string,
  planName: string,
  amountCents: number,
  reason: string,
  dashboardUrl: string,
): Promise<void> {
  await mailer.send({
    kind: 'auto_top_up_declined',
    to,
    subject: 'Scrub auto top-up stopped: your card was declined',
    text: [
      `Your balance fell below your auto top-up threshold, and the charge of $${(amountCents / 100).toFixed(2)} for ${planName} on your default card was refused:`,
      reason,
      '',
      'Nothing was charged, and auto top-up is stopped: it will not try again until you turn it on again.',
      `Update your card (${dashboardUrl}/card), then turn auto top-up on again on your account page (${dashboardUrl}/accountInfo).`,
    ].join('\n'),
  });
}
