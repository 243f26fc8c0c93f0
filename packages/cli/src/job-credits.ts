/** A job's credits for people: what it was charged, what was given back and why, and the net. */
import type { GiveBackReason, JobCredits } from '@scrub/sdk';
import { count } from './format.js';

const REASONS: Record<GiveBackReason, string> = {
  duplicates: 'duplicates',
  invalid: 'invalid',
  unanswered_lookups: 'lookups not answered',
  failed_or_cut: 'failed or cut',
  unspecified: 'duplicates and invalid',
};

/** `9 duplicates, 22 invalid`: the give-backs by reason, or '' when nothing was given back. */
export function givenBackReasons(credits: JobCredits): string {
  return (Object.entries(credits.given_back) as [GiveBackReason, number][])
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${count(n)} ${REASONS[reason]}`)
    .join(', ');
}

/**
 * `200 charged, 31 given back (9 duplicates, 22 invalid), net 169`: the ledger's figures, whose net
 * is what the balance fell by. An older server's job (no `credits`) says what its columns say.
 */
export function jobCreditsLine(job: {
  credits_charged: number;
  credits_reversed: number;
  credits?: JobCredits;
}): string {
  const { credits } = job;
  if (!credits) return `${count(job.credits_charged)} charged, ${count(job.credits_reversed)} given back`;
  const why = givenBackReasons(credits);
  return `${count(credits.charged)} charged, ${count(credits.given_back_total)} given back${why ? ` (${why})` : ''}, net ${count(credits.net)}`;
}
