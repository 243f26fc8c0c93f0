import type { ReassignedSource } from '@scrub/contract';

/** One answer to "was this number permanently disconnected on or after the consent date?". */
export interface ReassignedAnswer {
  /** true: yes; false: no, and the data covers the dates asked about; null: no data. */
  reassigned: boolean | null;
  /** Who answered and the date its data is complete to; null when nothing could answer. */
  reassigned_source: ReassignedSource | null;
}

/**
 * Who answers reassigned-number questions: the operator's imported disconnections
 * (`DisconnectsProvider`) or a query service (`HttpReassignedProvider`). Both answer as the FCC's
 * Reassigned Numbers Database does: yes, no, or no data.
 */
export interface ReassignedProvider {
  /** `e164`: a valid US number; `consentDate`: `YYYY-MM-DD`. Throws an ApiError when it cannot be asked. */
  answer(e164: string, consentDate: string): Promise<ReassignedAnswer>;
}

/** The answer when nothing can speak for the number: no data, and no source. */
export const NO_DATA: ReassignedAnswer = { reassigned: null, reassigned_source: null };
