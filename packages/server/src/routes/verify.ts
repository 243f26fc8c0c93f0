import { routes, type VerifyResult } from '@scrub/contract';
import { CallingClock, callingWindowOf, checkPhone, dataSourceOf, type LineType } from '@scrub/engine';
import type { CheckAnswer } from '../checks/answer-cache.js';
import type { CheckCharge } from '../checks/check-charger.js';
import type { ServerContext } from '../context.js';
import { refusePausedChecks } from '../reference-data/dnc-readiness.js';
import { dncFor, type ReferenceSnapshot } from '../reference-data/reference-data.js';

function answerFor(
  input: string,
  snapshot: ReferenceSnapshot,
  profileId: string,
  versions: Record<string, string>,
): CheckAnswer {
  // The shared lists and this account's own list: never another account's. The engine's rules are
  // the bulk scrub's: the same number answers the same in a file.
  const check = checkPhone(input, snapshot.exchange, { set: dncFor(snapshot, profileId) });
  return {
    phone_number: check.e164 ?? input,
    line_type: check.lineType,
    dnc: check.dnc ?? null,
    invalid_reason: check.invalidReason,
    invalid_message: check.message,
    extension: check.extension,
    dnc_sources: check.dncSources ?? [],
    dnc_lists_checked: check.dncListsChecked ?? [],
    data_source: dataSourceOf(snapshot),
    dataset_versions: versions,
  };
}

function withCharge(answer: CheckAnswer, cached: boolean, charge: CheckCharge): VerifyResult {
  // As of now, for a cached answer too: whether a number may be called changes by the minute.
  const window = callingWindowOf(
    answer.line_type === 'invalid' ? null : answer.phone_number,
    answer.line_type as LineType,
    new CallingClock(),
  );
  const answered = {
    ...answer,
    cached,
    timezones: [...window.timeZones],
    callable_now: window.callableNow,
    callable_reason: window.reason,
  };
  if (charge.unlimited) return answered;
  return { ...answered, credits_deducted: charge.deducted, credits_remaining: charge.remaining };
}

/**
 * GET /verify: one number, one credit. Invalid numbers are answered free (there is nothing to look
 * up); a repeat within the cache time is answered from the cache, free, and says `cached: true`.
 */
export function registerVerify({
  registry,
  config,
  referenceData,
  checkCharger,
  answerCache,
}: ServerContext): void {
  // Versions of a snapshot, worked out once per snapshot rather than once per answer.
  const versionsOf = new WeakMap<ReferenceSnapshot, Record<string, string>>();

  registry.add(routes.verify, async ({ query, principal }) => {
    const { profileId } = principal;
    refusePausedChecks(referenceData, config.requireDnc);
    // One snapshot per answer: a swap during this request cannot mix versions.
    const snapshot = referenceData.current();
    const generation = referenceData.ref.generation;
    let versions = versionsOf.get(snapshot);
    if (versions === undefined) {
      versions = referenceData.versions();
      versionsOf.set(snapshot, versions);
    }
    const answer = answerFor(query.p, snapshot, profileId, versions);
    if (answer.line_type === 'invalid') {
      return withCharge(answer, false, await checkCharger.charge(profileId, 0, answer.phone_number));
    }

    const e164 = answer.phone_number;
    // A repeat waits for the first check's payment; if that was refused, the next waiter pays.
    for (let cached = answerCache.get(profileId, generation, e164); cached; ) {
      if (await cached.paid)
        return withCharge(cached.answer, true, await checkCharger.charge(profileId, 0, e164));
      const next = answerCache.get(profileId, generation, e164);
      cached = next === cached ? undefined : next;
    }
    let settlePaid: (paid: boolean) => void = () => {};
    answerCache.set(profileId, generation, e164, {
      answer,
      paid: new Promise((resolve) => {
        settlePaid = resolve;
      }),
    });
    try {
      const charge = await checkCharger.charge(profileId, 1, e164);
      settlePaid(true);
      return withCharge(answer, false, charge);
    } catch (error) {
      answerCache.delete(profileId, generation, e164);
      settlePaid(false);
      throw error;
    }
  });
}
