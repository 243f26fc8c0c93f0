import type { ReassignedSource } from '@scrub/contract';
import type { ReassignedOption } from '@scrub/engine';
import type { ReassignedSettings } from '../config/reassigned-settings.js';
import { ApiError } from '../errors/api-error.js';
import type { ReferenceData, ReferenceSnapshot } from '../reference-data/reference-data.js';
import { DISCONNECTS_PROVIDER } from './disconnects-provider.js';

/**
 * Credits one record of a bulk job costs: the check, and with a consent-date column the
 * reassigned-number answer at the operator's price (SCRUB_REASSIGNED_CREDITS).
 */
export function recordPriceOf(settings: ReassignedSettings, consentCol: string | number | undefined): number {
  return consentCol === undefined ? 1 : 1 + settings.credits;
}

/**
 * A bulk job's Reassigned column is answered from the operator's imported disconnections only: a
 * query service is asked one number at a time, which a file of millions cannot wait for. With no
 * file imported, a consent column cannot be answered from data (every cell would be empty, at the
 * answer's price): refused (400) before anything is made or charged.
 */
export function refuseUnanswerableConsentColumn(
  settings: ReassignedSettings,
  referenceData: ReferenceData,
  consentCol: string | number | undefined,
): void {
  if (consentCol === undefined) return;
  if (referenceData.current().disconnects !== undefined) return;
  const why =
    settings.http === null
      ? 'no reassigned-number data is imported on this service (the operator loads it with "scrub-server data import disconnects")'
      : 'this service asks a reassigned-numbers query service one number at a time, and no disconnect file is imported to answer a file from';
  throw new ApiError(
    'bad_request',
    `A consent_col cannot be answered in a bulk job here: ${why}. Nothing was charged: check the numbers with consent_date on /verify, or leave out consent_col.`,
  );
}

/**
 * What the engine needs for a job's Reassigned column, from the job's snapshot, and the source
 * its answers name: the imported file and its as-of date, or null (no file: every cell is empty).
 */
export function bulkReassignedOf(
  snapshot: ReferenceSnapshot,
  consentCol: string | number | null,
): { option: ReassignedOption; source: ReassignedSource | null } | null {
  if (consentCol === null) return null;
  const disconnects = snapshot.disconnects ?? null;
  return {
    option: { consentColumn: consentCol, disconnects },
    source: disconnects === null ? null : { provider: DISCONNECTS_PROVIDER, as_of: disconnects.asOf },
  };
}
