import { DncList } from '@scrub/engine';
import { DataImportError } from './data-import-error.js';
import { DAY_MS, dayStart } from './dnc-age.js';
import { ftcAccountProblem } from './import-history.js';

/** What the checks read of an import request (data-import.ts's ImportRequest). */
interface DatedRequest {
  kind: string;
  releasedOn?: string;
  ftcAccount?: string;
}

/** Lists published with a date, whose age counts: the FTC's registry and its changes, states' lists. */
const DATED_KINDS: readonly string[] = ['ftc', 'ftc-changes', 'state'];

/**
 * A federal or state list must come with its release date, a real day not after tomorrow (UTC: the
 * publisher's today may be ahead of ours). Without it the list's age, and so whether its silence
 * may call a number clean, would be unknown.
 */
export function checkReleaseDate(request: DatedRequest, now = new Date()): void {
  if (request.kind === 'list' && request.releasedOn === undefined) return;
  if (!DATED_KINDS.includes(request.kind) && request.kind !== 'list') return;
  const what = request.kind === 'state' ? "the state list's" : "the FTC registry's";
  if (request.releasedOn === undefined) {
    throw new DataImportError(
      `A ${request.kind} import needs ${what} release date, the date of the list itself (not today's): give it with --released YYYY-MM-DD. Its age counts from it: past SCRUB_DNC_MAX_AGE_DAYS (31 by default) the list no longer calls a number clean.`,
    );
  }
  const released = dayStart(request.releasedOn);
  if (Number.isNaN(released)) {
    throw new DataImportError(`--released ${request.releasedOn} is not a date: give it as YYYY-MM-DD.`);
  }
  if (released > now.getTime() + DAY_MS) {
    throw new DataImportError(
      `--released ${request.releasedOn} is in the future: give the date the list was released.`,
    );
  }
}

/** The list with its release date recorded, when its kind has one. */
export function dated(list: DncList, request: DatedRequest): DncList {
  const recorded = DATED_KINDS.includes(request.kind) || request.kind === 'list';
  if (!recorded || request.releasedOn === undefined) return list;
  return DncList.fromShared({ ...list.toShared(), releasedOn: request.releasedOn });
}

/** A subscription account number goes with the FTC registry only, and must read as one. */
export function checkFtcAccount(request: DatedRequest): void {
  if (request.ftcAccount === undefined) return;
  if (request.kind !== 'ftc' && request.kind !== 'ftc-changes') {
    throw new DataImportError(
      'A subscription account number (--ftc-account) goes with the FTC registry only.',
    );
  }
  const problem = ftcAccountProblem(request.ftcAccount);
  if (problem !== null) throw new DataImportError(`--ftc-account ${problem}.`);
}
