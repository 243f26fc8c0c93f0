import { routes, type VerifyResult } from '@scrub/contract';
import { checkPhone, dataSourceOf } from '@scrub/engine';
import type { CheckAnswer } from '../checks/answer-cache.js';
import type { CheckCharge } from '../checks/check-charger.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../http/api-error.js';
import { dncFor, type ReferenceSnapshot } from '../reference-data/reference-data.js';

function answerFor(
  input: string,
  snapshot: ReferenceSnapshot,
  profileId: string,
  versions: Record<string, string>,
): CheckAnswer {
  const check = checkPhone(input, snapshot.exchange);
  let dncSources: string[] = [];
  if (check.e164 !== null && check.lineType !== 'invalid') {
    // The shared lists and this account's own list: never another account's.
    const dnc = dncFor(snapshot, profileId);
    dncSources = dnc.namesOf(dnc.mask(Number(check.e164.slice(2))));
  }
  return {
    phone_number: check.e164 ?? input,
    line_type: check.lineType,
    dnc: dncSources.length > 0 ? 1 : 0,
    invalid_reason: check.invalidReason,
    invalid_message: check.message,
    extension: check.extension,
    dnc_sources: dncSources,
    data_source: dataSourceOf(snapshot),
    dataset_versions: versions,
  };
}

/** Checks stop while imported data could not be loaded: without a DNC list, a listed number looks clean. */
export function refuseWithoutImportedData(missing: string[]): void {
  if (missing.length === 0) return;
  throw new ApiError(
    'service_unavailable',
    `Checks are paused: the reference data ${missing.join(', ')} could not be loaded, and answers without it could be wrong. The operator can see why in the server log and with "scrub-server data status".`,
  );
}

function withCharge(answer: CheckAnswer, cached: boolean, charge: CheckCharge): VerifyResult {
  if (charge.unlimited) return { ...answer, cached };
  return { ...answer, cached, credits_deducted: charge.deducted, credits_remaining: charge.remaining };
}

/**
 * GET /verify: one number, one credit. Invalid numbers are answered free (there is nothing to look
 * up); a repeat within the cache time is answered from the cache, free, and says `cached: true`.
 */
export function registerVerify({ registry, referenceData, checkCharger, answerCache }: ServerContext): void {
  // Versions of a snapshot, worked out once per snapshot rather than once per answer.
  const versionsOf = new WeakMap<ReferenceSnapshot, Record<string, string>>();

  registry.add(routes.verify, async ({ query, principal }) => {
    const { profileId } = principal;
    refuseWithoutImportedData(referenceData.missing());
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
