import { z } from 'zod';

/**
 * What an answer's line type rests on (docs/compliance.md, "Line-type provenance"):
 * - `sample`: generated sample data, not real: no real decision rests on it;
 * - `exchange`: the line type of the carrier holding the number's exchange (NPA-NXX); wrong for a
 *   number ported to a carrier of another kind;
 * - `thousands_block`: the carrier holding its thousands block (NPA-NXX-X), finer than the exchange;
 * - `number_override`: the operator's list of single numbers (mostly ported ones);
 * - `carrier_lookup`: a live carrier lookup of the number (Twilio Lookup), asked with `lookup=carrier`;
 * - `numbering_plan`: the area code alone decides (toll-free 8YY codes).
 * null: nothing gave the number a line type (invalid by the numbering plan's rules, or unreadable).
 * For `unknown_geographic`, the table consulted, which had no line type for the number.
 */
export const LINE_TYPE_SOURCES = [
  'sample',
  'exchange',
  'thousands_block',
  'number_override',
  'carrier_lookup',
  'numbering_plan',
] as const;
export const LineTypeSourceSchema = z.enum(LINE_TYPE_SOURCES);
export type LineTypeSource = z.infer<typeof LineTypeSourceSchema>;

/** What a customer may ask to be looked up live: `carrier` (the number's carrier and line type). */
export const LOOKUPS = ['carrier'] as const;
export const LookupSchema = z.enum(LOOKUPS);
export type Lookup = z.infer<typeof LookupSchema>;

/**
 * The carrier lookup an answer asked for (`lookup=carrier`); null when none was asked. `answered`:
 * the provider gave a line type, and `line_type` is its (`line_type_source: carrier_lookup`).
 * `failed`: no answer in time, or an error: the line type is the tables' (`line_type_source` says
 * which), and no lookup credit was taken. `no_line_type`: the provider answered with a type Scrub
 * has no line type for (`pager`, `voicemail`, `unknown`...): the tables' answer stands, no lookup
 * credit was taken.
 */
export const CarrierLookupSchema = z.object({
  status: z.enum(['answered', 'failed', 'no_line_type']),
  /** Who answered: `twilio`. */
  provider: z.string(),
  /** The provider's own type (`mobile`, `fixedVoip`, `nonFixedVoip`...); null when it failed. */
  provider_type: z.string().nullable(),
  carrier_name: z.string().nullable(),
  /** When the provider answered (ISO 8601): answers are reused for 30 days. null when it failed. */
  looked_up_at: z.string().nullable(),
  /** Why it failed, for people; null otherwise. */
  message: z.string().nullable(),
});
export type CarrierLookup = z.infer<typeof CarrierLookupSchema>;

/** The provenance fields of an answer (`/verify`, batch answers), beside `line_type`. */
export const LineTypeProvenanceShape = {
  /** What `line_type` rests on (`LINE_TYPE_SOURCES`); null when nothing gave one. Absent from older servers. */
  line_type_source: LineTypeSourceSchema.nullable().optional(),
  /**
   * true when a carrier lookup's line type differs from the one the imported tables give (the number
   * moved to another kind of carrier); null otherwise: without a lookup nothing says, and a lookup
   * that agrees cannot tell a port between two carriers of one kind. false only from a provider that
   * reports ports (Twilio's line type intelligence does not). Absent from older servers.
   */
  ported: z.boolean().nullable().optional(),
  /** With `lookup=carrier`: what the lookup answered; null or absent when none was asked. */
  carrier_lookup: CarrierLookupSchema.nullable().optional(),
};

/**
 * A bulk job's carrier lookups (`lookup: 'carrier'`): who answered, how many distinct numbers a
 * lookup gave a line type (charged the lookup price each) and how many it did not (failed, or a
 * type Scrub has none for: their rows keep the tables' answer, and the lookup price was given back).
 */
export const CarrierLookupCountsSchema = z.object({
  provider: z.string(),
  answered: z.number().int().nonnegative(),
  not_answered: z.number().int().nonnegative(),
});
export type CarrierLookupCounts = z.infer<typeof CarrierLookupCountsSchema>;

/** Rows with a valid number by what their line type rests on (`LINE_TYPE_SOURCES`). */
export const LineTypeSourceCountsSchema = z.record(z.string(), z.number().int().nonnegative());
