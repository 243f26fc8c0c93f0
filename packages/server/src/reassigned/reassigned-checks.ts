import type { ReassignedSettings } from '../config/reassigned-settings.js';
import type { ReferenceData } from '../reference-data/reference-data.js';
import { DisconnectsProvider } from './disconnects-provider.js';
import { HttpReassignedProvider } from './http-provider.js';
import type { ReassignedProvider } from './reassigned-provider.js';

/** Who answers reassigned-number questions in this service, and what one answer costs in credits. */
export interface ReassignedChecks {
  provider: ReassignedProvider;
  credits: number;
}

/** The query service when one is configured; otherwise the operator's imported disconnections. */
export function reassignedChecksOf(
  settings: ReassignedSettings,
  referenceData: ReferenceData,
): ReassignedChecks {
  const provider =
    settings.http === null
      ? new DisconnectsProvider(() => referenceData.current().disconnects)
      : new HttpReassignedProvider(settings.http);
  return { provider, credits: settings.credits };
}
