import type { CarrierLookupCounts } from '@scrub/contract';
import type { Selectable, Transaction } from 'kysely';
import { applyLedgerEntry } from '../account/ledger.js';
import type { BulkJobsTable, Database, ReversalReason } from '../storage/schema.js';

type JobRow = Selectable<BulkJobsTable>;

/** What a scrub counted, as job-store.ts's `JobOutcome` has it. */
interface ScrubCounts {
  totalRows: number;
  duplicates: number;
  numbersChecked: number;
  carrierLookups?: CarrierLookupCounts | null;
}

/** Credits a job gives back for one reason, and the note its ledger entry carries. */
export interface GiveBack {
  reason: ReversalReason;
  credits: number;
  note: string;
}

/**
 * What a completed job gives back of the `unused` credits it was charged, by reason: duplicates
 * (a number charged once however often it is in the file), rows without a valid number, carrier
 * lookups the provider did not answer, and, when the file held fewer records than were paid for,
 * those records (as for a cut-off stream).
 */
export function completionGiveBacks(job: JobRow, outcome: ScrubCounts, unused: number): GiveBack[] {
  const invalidRows = Math.max(outcome.totalRows - outcome.numbersChecked - outcome.duplicates, 0);
  const unanswered = Math.max(outcome.numbersChecked - (outcome.carrierLookups?.answered ?? 0), 0);
  const parts: GiveBack[] = [
    {
      reason: 'duplicates',
      credits: outcome.duplicates * job.record_price,
      note: 'duplicates are charged once',
    },
    { reason: 'invalid', credits: invalidRows * job.record_price, note: 'invalid numbers are not charged' },
    {
      reason: 'unanswered_lookups',
      credits: job.lookup === null ? 0 : unanswered * job.lookup_price,
      note: 'lookups the provider did not answer are not charged',
    },
  ];
  let left = unused;
  const given = parts.map((part) => {
    const credits = Math.min(part.credits, left);
    left -= credits;
    return { ...part, credits };
  });
  given.push({ reason: 'failed_or_cut', credits: left, note: 'records paid for and not in the file' });
  return given.filter((part) => part.credits > 0);
}

/**
 * Gives back credits not used, once, one ledger entry per reason: the job's own `credits_reversed`
 * says what was given back before, and nothing beyond what it was charged is. Answers the job's
 * new `credits_reversed`.
 */
export async function giveBack(trx: Transaction<Database>, job: JobRow, parts: GiveBack[]): Promise<number> {
  const total = parts.reduce((sum, part) => sum + part.credits, 0);
  let owed = Math.min(total, job.credits_charged) - job.credits_reversed;
  let reversed = job.credits_reversed;
  for (const part of parts) {
    const credits = Math.min(part.credits, owed);
    if (credits <= 0) break;
    await applyLedgerEntry(trx, {
      profileId: job.profile_id,
      delta: credits,
      kind: 'reversal',
      reference: job.id,
      note: part.note,
      reason: part.reason,
    });
    owed -= credits;
    reversed += credits;
  }
  return reversed;
}
