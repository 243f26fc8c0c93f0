import { type DisconnectList, dayOf } from '@scrub/engine';
import { NO_DATA, type ReassignedAnswer, type ReassignedProvider } from './reassigned-provider.js';

/** The `provider` an answer from the operator's imported file names. */
export const DISCONNECTS_PROVIDER = 'imported_disconnects';

/**
 * Answers from the permanent disconnections the operator imported (`scrub-server data import
 * disconnects`): works offline. Without a file every answer is no data. See
 * `DisconnectList.reassignedSince` for when the file may say no.
 */
export class DisconnectsProvider implements ReassignedProvider {
  constructor(private readonly current: () => DisconnectList | undefined) {}

  async answer(e164: string, consentDate: string): Promise<ReassignedAnswer> {
    const list = this.current();
    if (list === undefined) return NO_DATA;
    const reassigned = list.reassignedSince(Number(e164.slice(2)), dayOf(consentDate));
    return { reassigned, reassigned_source: { provider: DISCONNECTS_PROVIDER, as_of: list.asOf } };
  }
}
