import { routes, type VerifyProofStatement, type VerifyResult } from '@scrub/contract';
import { checkPhone, type DncSet, dataSourceOf } from '@scrub/engine';
import { getProfile } from '../account/profiles.js';
import type { CheckAnswer } from '../checks/answer-cache.js';
import type { CheckCharge } from '../checks/check-charger.js';
import type { ServerContext } from '../context.js';
import { ftcRegistryOf, validUntil } from '../proof/proof-signer.js';
import { refusePausedChecks } from '../reference-data/dnc-readiness.js';
import type { ReferenceSnapshot } from '../reference-data/reference-data.js';

function answerFor(
  input: string,
  snapshot: ReferenceSnapshot,
  dnc: DncSet,
  versions: Record<string, string>,
): CheckAnswer {
  // The shared lists and this account's own list: never another account's. The engine's rules are
  // the bulk scrub's: the same number answers the same in a file.
  const check = checkPhone(input, snapshot.exchange, { set: dnc });
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
  if (charge.unlimited) return { ...answer, cached };
  return { ...answer, cached, credits_deducted: charge.deducted, credits_remaining: charge.remaining };
}

/**
 * GET /verify: one number, one credit. Invalid numbers are answered free (there is nothing to look
 * up); a repeat within the cache time is answered from the cache, free, and says `cached: true`.
 */
export function registerVerify({
  registry,
  config,
  database,
  referenceData,
  suppressionLists,
  checkCharger,
  answerCache,
  proofSigner,
}: ServerContext): void {
  // Versions of a snapshot, worked out once per snapshot rather than once per answer.
  const versionsOf = new WeakMap<ReferenceSnapshot, Record<string, string>>();

  /** `proof=1`: the answer, signed; charged nothing more than the answer itself. */
  async function withProof(result: VerifyResult, profileId: string): Promise<VerifyResult> {
    const { email } = await getProfile(database.db, profileId);
    const checkedAt = new Date();
    const registry = ftcRegistryOf(result.dataset_versions);
    const { jws } = await proofSigner.sign<VerifyProofStatement>({
      type: 'scrub.verify',
      phone_number: result.phone_number,
      line_type: result.line_type,
      dnc: result.dnc,
      dnc_lists_checked: result.dnc_lists_checked,
      account: { id: profileId, email },
      datasets: result.dataset_versions,
      ftc_registry: registry,
      checked_at: checkedAt.toISOString(),
      valid_until: validUntil(checkedAt, registry),
    });
    return { ...result, proof: jws };
  }

  registry.add(routes.verify, async ({ query, principal }) => {
    const result = await answerOne(query.p, principal.profileId);
    return query.proof === '1' || query.proof === 'true' ? withProof(result, principal.profileId) : result;
  });

  async function answerOne(p: string, profileId: string): Promise<VerifyResult> {
    refusePausedChecks(referenceData, config.requireDnc);
    // One snapshot per answer: a swap during this request cannot mix versions.
    const snapshot = referenceData.current();
    // The account's own list from memory: a query only when it changed since this process read it.
    const dnc = await suppressionLists.dncFor(snapshot, profileId);
    const generation = `${referenceData.ref.generation}.${dnc.version}`;
    let versions = versionsOf.get(snapshot);
    if (versions === undefined) {
      versions = referenceData.versions();
      versionsOf.set(snapshot, versions);
    }
    // An account with a list of its own answers from it too, and says which version.
    const used = dnc.set === snapshot.dnc ? versions : { ...versions, 'dnc:internal': dnc.version };
    const answer = answerFor(p, snapshot, dnc.set, used);
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
  }
}
