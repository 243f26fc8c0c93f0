import type { LineType } from '@scrub/contract';

/**
 * Twilio Lookup's `line_type_intelligence.type` as Scrub's line type. Fixed and non-fixed VoIP are
 * both `voip` (Scrub does not tell them apart). Twilio's other types (`personal`, `premium`,
 * `sharedCost`, `uan`, `voicemail`, `pager`, `unknown`) have no Scrub line type: such an answer
 * leaves the tables' line type standing (`no_line_type`), rather than inventing one.
 */
const TWILIO_LINE_TYPES: Readonly<Record<string, LineType>> = {
  mobile: 'mobile',
  landline: 'landline',
  fixedVoip: 'voip',
  nonFixedVoip: 'voip',
  tollFree: 'toll_free',
};

/** Scrub's line type for a Twilio type; null when Scrub has none for it. */
export function lineTypeOfTwilioType(type: string | null): LineType | null {
  return type !== null && Object.hasOwn(TWILIO_LINE_TYPES, type) ? TWILIO_LINE_TYPES[type]! : null;
}
