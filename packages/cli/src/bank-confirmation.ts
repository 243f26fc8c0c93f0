import type { PurchaseResult } from '@scrub/contract';
import type { Scrub } from '@scrub/sdk';
import type { Context } from './context.js';
import { CliError, NO_CREDITS_EXIT_CODE } from './errors.js';
import { openInBrowser } from './open-browser.js';
import { progressLine } from './progress-line.js';

/** The confirmation link lasts 15 minutes: waiting longer cannot end well. */
const LINK_MINUTES = 15;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A purchase the bank wants confirmed (3-D Secure): prints the single-use confirmation page, opens
 * it at a terminal, and waits (a spinner on a terminal) until the payment succeeds or fails. Ctrl-C
 * stops the waiting only: the payment, if the person confirms it, is still credited.
 */
export async function waitForBank(
  scrub: Scrub,
  context: Context,
  payment: { paymentIntentId: string; nextActionUrl: string },
  pollInterval = 1_000,
): Promise<PurchaseResult> {
  const { stderr } = context.io;
  stderr.write(
    `Your bank asks you to confirm this payment (3-D Secure). Open this page within ${LINK_MINUTES} minutes:\n  ${payment.nextActionUrl}\n`,
  );
  if (context.io.stderr.isTTY && context.canPrompt) openInBrowser(payment.nextActionUrl);
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort();
  process.once('SIGINT', interrupt);
  const progress = progressLine(context.io);
  let frame = 0;
  try {
    const state = await scrub.purchases.waitForConfirmation(payment.paymentIntentId, {
      pollInterval,
      signal: AbortSignal.any([interrupted.signal, AbortSignal.timeout(LINK_MINUTES * 60_000)]),
      onPoll: () =>
        progress.update(
          `${FRAMES[frame++ % FRAMES.length]} Waiting for your bank's confirmation (Ctrl-C to stop waiting)`,
          true,
        ),
    });
    progress.clear();
    if (state.status === 'failed' || !state.purchase)
      throw new CliError(state.message, NO_CREDITS_EXIT_CODE, 'card_declined');
    return state.purchase;
  } catch (error) {
    progress.clear();
    const { APIUserAbortError } = await import('@scrub/sdk');
    if (!(error instanceof APIUserAbortError)) throw error;
    const why = interrupted.signal.aborted ? 'Stopped waiting' : `No confirmation in ${LINK_MINUTES} minutes`;
    throw new CliError(
      `${why}. Nothing is charged until the payment is confirmed; if it is confirmed at the page, the credits arrive all the same (see scrub purchases).`,
      interrupted.signal.aborted ? 130 : NO_CREDITS_EXIT_CODE,
      interrupted.signal.aborted ? 'cancelled' : 'authentication_required',
    );
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
}
