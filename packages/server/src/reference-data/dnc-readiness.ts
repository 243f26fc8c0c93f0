import { ApiError } from '../errors/api-error.js';
import type { ReferenceData, ReferenceSnapshot } from './reference-data.js';

/** Which shared do-not-call lists are loaded, and whether those the operator requires are: /health and /config. */
export interface DncReadiness {
  /** The federal and state lists every account's checks consult, loaded now. */
  loaded: string[];
  /** SCRUB_REQUIRE_DNC. */
  required: string[];
  /** Required lists not loaded: checks are refused while there are any. */
  missing_required: string[];
}

export function dncReadiness(snapshot: ReferenceSnapshot, required: readonly string[]): DncReadiness {
  const loaded = snapshot.dnc.lists.map((list) => list.name);
  return {
    loaded,
    required: [...required],
    missing_required: required.filter((name) => !loaded.includes(name)),
  };
}

/**
 * Why checks must not answer now, or null: imported data that could not be loaded, or a list the
 * operator requires (SCRUB_REQUIRE_DNC) that is not loaded. Either way an answer could call a
 * registered number clean, so single checks answer 503 and bulk jobs fail with their credits back.
 */
export function checksPausedReason(referenceData: ReferenceData, required: readonly string[]): string | null {
  const missing = referenceData.missing();
  if (missing.length > 0) {
    return `the reference data ${missing.join(', ')} could not be loaded, and answers without it could be wrong. The operator can see why in the server log and with "scrub-server data status".`;
  }
  const { missing_required } = dncReadiness(referenceData.current(), required);
  if (missing_required.length > 0) {
    return `the do-not-call list${missing_required.length === 1 ? '' : 's'} ${missing_required.join(', ')} ${missing_required.length === 1 ? 'is' : 'are'} required by this service (SCRUB_REQUIRE_DNC) and not loaded, and answers without ${missing_required.length === 1 ? 'it' : 'them'} could call a registered number clean. The operator imports ${missing_required.length === 1 ? 'it' : 'them'} with "scrub-server data import".`;
  }
  return null;
}

/** 503 while `checksPausedReason` gives a reason. */
export function refusePausedChecks(referenceData: ReferenceData, required: readonly string[]): void {
  const reason = checksPausedReason(referenceData, required);
  if (reason !== null) throw new ApiError('service_unavailable', `Checks are paused: ${reason}`);
}
