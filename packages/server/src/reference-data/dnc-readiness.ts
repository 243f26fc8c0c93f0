import type { DncListDate } from '@scrub/contract';
import { ApiError } from '../errors/api-error.js';
import { isAgedList } from './dnc-age.js';
import type { ReferenceData } from './reference-data.js';

/** Which shared do-not-call lists are loaded, and whether those the operator requires are: /health and /config. */
export interface DncReadiness {
  /** The federal and state lists every account's checks consult, loaded now. */
  loaded: string[];
  /** SCRUB_REQUIRE_DNC. */
  required: string[];
  /** Required lists not loaded, or loaded and stale: checks are refused while there are any. */
  missing_required: string[];
  /** Loaded lists past the maximum age (or of unknown date): their silence makes no number clean. */
  stale: string[];
  /** Each loaded list's release date and age. */
  lists: DncListDate[];
  /** SCRUB_DNC_MAX_AGE_DAYS: the age past which a list is stale. */
  max_age_days: number;
}

export function dncReadiness(referenceData: ReferenceData, required: readonly string[]): DncReadiness {
  const lists = referenceData.listDates();
  const fresh = lists.filter((list) => !list.stale).map((list) => list.list);
  return {
    loaded: lists.map((list) => list.list),
    required: [...required],
    missing_required: required.filter((name) => !fresh.includes(name)),
    stale: lists.filter((list) => list.stale).map((list) => list.list),
    lists,
    max_age_days: referenceData.ageRule.maxAgeDays,
  };
}

/** "federal (released 2026-10-01, 40 days ago)", or "(release date not recorded)". */
export function describeListDate(date: DncListDate): string {
  if (date.released_on === null) return `${date.list} (release date not recorded)`;
  const age = date.age_days === 1 ? '1 day' : `${date.age_days} days`;
  return `${date.list} (released ${date.released_on}, ${age} ago)`;
}

/**
 * Why checks must not answer now, or null: imported data that could not be loaded, or a list the
 * operator requires (SCRUB_REQUIRE_DNC) that is not loaded or is past the maximum age. Either way
 * an answer could call a registered number clean, so single checks answer 503 and bulk jobs fail
 * with their credits back (and are refused at submit, before any charge).
 */
export function checksPausedReason(referenceData: ReferenceData, required: readonly string[]): string | null {
  const missing = referenceData.missing();
  if (missing.length > 0) {
    return `the reference data ${missing.join(', ')} could not be loaded, and answers without it could be wrong. The operator can see why in the server log and with "scrub-server data status".`;
  }
  const readiness = dncReadiness(referenceData, required);
  const absent = readiness.missing_required.filter((name) => !readiness.loaded.includes(name));
  if (absent.length > 0) {
    return `the do-not-call list${absent.length === 1 ? '' : 's'} ${absent.join(', ')} ${absent.length === 1 ? 'is' : 'are'} required by this service (SCRUB_REQUIRE_DNC) and not loaded, and answers without ${absent.length === 1 ? 'it' : 'them'} could call a registered number clean. The operator imports ${absent.length === 1 ? 'it' : 'them'} with "scrub-server data import".`;
  }
  const stale = readiness.lists.filter((list) => list.stale && required.includes(list.list));
  if (stale.length > 0) {
    const maxAge = referenceData.ageRule.maxAgeDays;
    return `the do-not-call list${stale.length === 1 ? '' : 's'} ${stale.map(describeListDate).join(', ')} ${stale.length === 1 ? 'is' : 'are'} required by this service (SCRUB_REQUIRE_DNC) and older than ${maxAge} days (SCRUB_DNC_MAX_AGE_DAYS), too old to call a number clean. The operator imports a newer release with "scrub-server data import".`;
  }
  return null;
}

/** 503 while `checksPausedReason` gives a reason. */
export function refusePausedChecks(referenceData: ReferenceData, required: readonly string[]): void {
  const reason = checksPausedReason(referenceData, required);
  if (reason !== null) throw new ApiError('service_unavailable', `Checks are paused: ${reason}`);
}

/**
 * What a customer about to pay for checks should know of the lists, in one sentence: none loaded,
 * no federal registry, or lists too old to call a number clean. null when the federal registry
 * and every other list is fresh.
 */
export function dncNotice(dates: readonly DncListDate[], maxAgeDays: number): string | null {
  const shared = dates.filter((date) => isAgedList(date.list));
  const fresh = shared.filter((date) => !date.stale);
  const stale = shared.filter((date) => date.stale);
  const sentences: string[] = [];
  if (shared.length === 0) {
    sentences.push(
      dates.length === 0
        ? 'No do-not-call list is loaded on this service: every valid number will answer unchecked (dnc: null), never clean.'
        : 'No federal or state do-not-call list is loaded on this service: only your own suppression list is checked, and numbers not on it answer unchecked (dnc: null), never clean.',
    );
  } else if (
    !fresh.some((date) => date.list === 'federal') &&
    !stale.some((date) => date.list === 'federal')
  ) {
    sentences.push(
      `The federal registry is not loaded: only numbers in the area codes of ${fresh.map((date) => date.list).join(', ') || 'no fresh list'} can answer clean; the others answer unchecked.`,
    );
  }
  if (stale.length > 0) {
    sentences.push(
      `${stale.map(describeListDate).join(', ')} ${stale.length === 1 ? 'is' : 'are'} older than ${maxAgeDays} days: ${stale.length === 1 ? 'it still flags the numbers it holds, but numbers not on it' : 'they still flag the numbers they hold, but numbers not on them'} answer unchecked, not clean.`,
    );
  }
  return sentences.length === 0 ? null : sentences.join(' ');
}
