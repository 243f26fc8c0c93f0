import type { CarrierLookupCounts, Lookup } from '@scrub/contract';
import { type CarrierOption, carrierOptionOf, type LineType } from '@scrub/engine';
import { ApiError } from '../errors/api-error.js';
import type { CarrierLookups } from './carrier-lookups.js';
import { lineTypeOfTwilioType } from './twilio-line-types.js';

/** Numbers of a job asked of the provider at once; each call has its own deadline (the settings'). */
export const JOB_LOOKUPS_AT_ONCE = 8;

/**
 * Credits one record's carrier lookup costs in a bulk job (`lookup: 'carrier'`): the operator's
 * price, 0 without the option. Asked of a service with no lookups set up: 400, before anything is
 * made or charged, as GET /verify?lookup=carrier.
 */
export function lookupPriceOf(lookups: CarrierLookups | null, lookup: Lookup | undefined): number {
  if (lookup === undefined) return 0;
  if (lookups === null) {
    throw new ApiError(
      'bad_request',
      'Carrier lookups are not offered by this service (its operator has not set Twilio Lookup up): submit the job without lookup: carrier. Nothing was charged.',
    );
  }
  return lookups.credits;
}

/** A streamed file is scrubbed as it arrives, before its numbers could be looked up: 400. */
export function refuseStreamedLookup(lookup: Lookup | undefined): void {
  if (lookup === undefined) return;
  throw new ApiError(
    'bad_request',
    'Carrier lookups are not made in a streamed job: the file is scrubbed as it arrives, before its numbers could be looked up. Create a queued job (POST /bulk/jobs with lookup: carrier), or stream without lookup. Nothing was charged.',
  );
}

/** A job's lookups: what the engine needs for its rows, and what the job and its proof say of them. */
export interface JobLookups {
  option: CarrierOption;
  counts: CarrierLookupCounts;
}

/**
 * Looks up each of a job's distinct valid numbers (10 digits, as `distinctValidNumbers` gives
 * them), `JOB_LOOKUPS_AT_ONCE` at a time: answers of the last 30 days are reused, and a failed call
 * (its deadline passed, an error) or a type Scrub has no line type for leaves the number's tables'
 * answer, counted `not_answered` (its lookup price is given back).
 */
export async function lookUpJobNumbers(
  lookups: CarrierLookups,
  numbers: Float64Array,
  signal: AbortSignal,
): Promise<JobLookups> {
  const answers: { number: number; lineType: LineType }[] = [];
  let notAnswered = 0;
  for (let i = 0; i < numbers.length; i += JOB_LOOKUPS_AT_ONCE) {
    signal.throwIfAborted();
    const batch = Array.from(numbers.subarray(i, i + JOB_LOOKUPS_AT_ONCE));
    const looked = await Promise.all(batch.map((number) => lookups.lookUp(`+1${number}`)));
    looked.forEach((lookup, k) => {
      const lineType = lookup.status === 'answered' ? lineTypeOfTwilioType(lookup.provider_type) : null;
      if (lineType === null) notAnswered++;
      else answers.push({ number: batch[k]!, lineType });
    });
  }
  return {
    option: carrierOptionOf(answers),
    counts: { provider: lookups.provider, answered: answers.length, not_answered: notAnswered },
  };
}
