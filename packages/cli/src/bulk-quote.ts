import type { BulkJob, Scrub } from '@scrub/sdk';
import type { Context } from './context.js';
import { describeDncLists } from './dnc-lists.js';
import { CliError, OutOfCreditsError } from './errors.js';
import { count } from './format.js';

/**
 * At a terminal, `scrub bulk` shows what the file costs (the bulk wizard's "Found N phone numbers
 * (requires N credits)") and asks before charging; with --yes, or without a terminal (scripts,
 * pipelines), it goes ahead and the submit's own credit check decides.
 */
export async function confirmBulkCharge(
  context: Context,
  scrub: Scrub,
  job: Pick<BulkJob, 'job_id' | 'lists' | 'consent_col' | 'lookup'>,
  yes: boolean | undefined,
): Promise<void> {
  if (yes || !context.canPrompt) return;
  const jobId = job.job_id;
  const quote = await scrub.bulk.quote(jobId);
  // With a consent column or lookups a record costs more than one credit (absent from older servers: one).
  const price = quote.credits_per_record ?? 1;
  const each = price === 1 ? '' : `, ${count(price)} credits each with ${pricedChecks(job)}`;
  const found = `Found ${count(quote.records)} phone numbers (requires ${count(quote.records * price)} credits${each}).`;
  const have = quote.unlimited
    ? 'Unlimited plan active, no credits required.'
    : `You have ${count(quote.credits_available)} credits; ${count(quote.credits_required)} will be charged.`;
  context.io.stderr.write(`${found} ${have}\n`);
  // Which lists the numbers will be checked against, and their dates (absent from older servers).
  if (quote.dnc_lists !== undefined)
    context.io.stderr.write(describeDncLists(quote.dnc_lists, quote.dnc_notice));
  // The operator lists the result will flag (the job's own, else the account's default).
  if (job.lists !== undefined && job.lists.length > 0)
    context.io.stderr.write(`Operator lists flagged: ${job.lists.join(', ')}.\n`);
  if (quote.plan_paused) {
    throw new CliError(
      'Your plan is paused: resume it with scrub account activate (with or without a subscription), then submit again.',
      1,
      'plan_paused',
    );
  }
  if (!quote.sufficient) {
    throw new OutOfCreditsError(
      `You need ${count(quote.credits_required)} credits but only have ${count(quote.credits_available)}. Buy more with scrub buy.`,
    );
  }
  if (!(await context.io.prompter.confirm('Process the records?', true))) {
    throw new CliError(`Not submitted: nothing was charged. Job ${jobId} stays uploaded.`, 1, 'cancelled');
  }
}

/** What makes a record cost more than one credit, for people. */
function pricedChecks(job: Pick<BulkJob, 'consent_col' | 'lookup'>): string {
  const checks = [
    ...(job.consent_col == null ? [] : ['the reassigned-number check']),
    ...(job.lookup == null ? [] : ['the carrier lookup']),
  ];
  return checks.length > 0 ? checks.join(' and ') : 'the checks asked';
}
