import { z } from 'zod';

const DAY_MS = 86_400_000;

/**
 * `consent_date`: the day the number's subscriber gave consent (or the last day the caller knew
 * the number was theirs), `YYYY-MM-DD`. Asking it adds a reassigned-number answer to a check, at
 * the price the operator sets (`reassigned.credits` in GET /config).
 */
export const ConsentDateSchema = z
  .string()
  .max(10, 'consent_date is a date written YYYY-MM-DD, such as 2024-02-01')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'consent_date is a date written YYYY-MM-DD, such as 2024-02-01')
  .refine((text) => {
    const time = Date.parse(`${text}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
  }, 'consent_date is not a day of the calendar')
  .refine(
    (text) => Date.parse(`${text}T00:00:00Z`) <= Date.now() + DAY_MS,
    'consent_date is in the future: give the day consent was given',
  )
  .meta({ format: 'date' });

/** Who answered a reassigned-number question, and the day its data is complete to. */
export const ReassignedSourceSchema = z.object({
  /** `imported_disconnects` (the operator's imported file) or `query_service` (a live query service). */
  provider: z.string(),
  /** `YYYY-MM-DD`: the data speaks for no day after this one. */
  as_of: z.string(),
});
export type ReassignedSource = z.infer<typeof ReassignedSourceSchema>;

/**
 * The answer's reassigned-number fields, present only when `consent_date` was asked. `reassigned`:
 * true when the number was permanently disconnected on or after the consent date (consent from
 * its former subscriber does not carry over: never call it on that consent); false when the data
 * covers the consent date up to its `as_of` and holds no such disconnection; null when there is
 * no data (the service said so, no file is imported, or the consent date falls outside the days
 * the file covers). Never read null as false.
 */
export const ReassignedFieldsSchema = z.object({
  reassigned: z.boolean().nullable().optional(),
  /** Who answered `reassigned`; null when nothing could. */
  reassigned_source: ReassignedSourceSchema.nullable().optional(),
});
