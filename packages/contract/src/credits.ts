import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paged-listing.js';
import { defineRoutes } from './route-spec.js';

/**
 * Why credits were given back to a job: `duplicates` (a number is charged once however often the
 * file has it), `invalid` (rows without a valid number), `unanswered_lookups` (carrier lookups the
 * provider did not answer), `failed_or_cut` (a failed job, or records a cut-off stream did not
 * bring), `unspecified` (given back before the service recorded why: duplicates and invalid
 * numbers together).
 */
export const GIVE_BACK_REASONS = [
  'duplicates',
  'invalid',
  'unanswered_lookups',
  'failed_or_cut',
  'unspecified',
] as const;
export const GiveBackReasonSchema = z.enum(GIVE_BACK_REASONS);
export type GiveBackReason = z.infer<typeof GiveBackReasonSchema>;

/**
 * A job's credits as the ledger has them: what it was charged, what was given back by reason, and
 * the net, `charged - given_back_total`, which is what the balance fell by for the job.
 */
export const JobCreditsSchema = z
  .object({
    charged: z.number().int().nonnegative(),
    given_back: z.object({
      duplicates: z.number().int().nonnegative(),
      invalid: z.number().int().nonnegative(),
      unanswered_lookups: z.number().int().nonnegative(),
      failed_or_cut: z.number().int().nonnegative(),
      unspecified: z.number().int().nonnegative(),
    }),
    given_back_total: z.number().int().nonnegative(),
    net: z.number().int(),
  })
  .meta({ id: 'JobCredits' });
export type JobCredits = z.infer<typeof JobCreditsSchema>;

/** The ledger's kinds of entry. An auto top-up is a `purchase` whose note starts "Auto top-up". */
export const LEDGER_KINDS = [
  'grant',
  'purchase',
  'bonus',
  'subscription_grant',
  'refund',
  'check',
  'bulk_charge',
  'reversal',
  'adjustment',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** How the history names each kind of entry (the dashboard's and the CLI's column). */
export function ledgerEntryLabel(entry: { kind: LedgerKind; note: string | null }): string {
  if (entry.kind === 'purchase' && entry.note?.startsWith('Auto top-up')) return 'Auto top-up';
  return {
    grant: 'Credits granted',
    purchase: 'Purchase',
    bonus: 'Bonus',
    subscription_grant: 'Subscription credits',
    refund: 'Refund',
    check: 'Check',
    bulk_charge: 'Bulk job',
    reversal: 'Given back',
    adjustment: 'Admin adjustment',
  }[entry.kind];
}

/** How a give-back's reason reads on screen. */
export const GIVE_BACK_LABELS: Record<GiveBackReason, string> = {
  duplicates: 'Duplicates (charged once)',
  invalid: 'Invalid numbers',
  unanswered_lookups: 'Lookups not answered',
  failed_or_cut: 'Failed or cut off',
  unspecified: 'Duplicates and invalid numbers',
};

/** One entry of the credit ledger, with the balance it left. */
export const CreditHistoryEntrySchema = z
  .object({
    id: z.string(),
    created_at: z.string(),
    kind: z.enum(LEDGER_KINDS),
    /** What the kind reads as ("Auto top-up" for an automatic purchase). */
    label: z.string(),
    /** Credits added (positive) or taken (negative). */
    delta: z.number().int(),
    /** The balance after this entry. */
    balance_after: z.number().int(),
    /** What the entry is about: a job id, a payment id, a phone number. */
    reference: z.string().nullable(),
    note: z.string().nullable(),
    /** Why a give-back (`reversal`) gave credits back; null on other kinds. */
    reason: GiveBackReasonSchema.nullable(),
  })
  .meta({ id: 'CreditHistoryEntry' });
export type CreditHistoryEntry = z.infer<typeof CreditHistoryEntrySchema>;

/** `month=YYYY-MM`: the entries of that UTC month. */
export const CreditHistoryFilterSchema = z.object({
  month: z
    .string()
    .max(7)
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month, YYYY-MM')
    .optional(),
});
export type CreditHistoryFilter = z.infer<typeof CreditHistoryFilterSchema>;

/** `GET /credits/history`: newest first. */
export const CreditHistoryQuerySchema = CreditHistoryFilterSchema.extend({
  ...pageQueryFields('Entries'),
});
export type CreditHistoryQuery = z.infer<typeof CreditHistoryQuerySchema>;

export const CreditHistoryPageSchema = pageSchema('CreditHistoryPage', 'entries', CreditHistoryEntrySchema);
export type CreditHistoryPage = z.infer<typeof CreditHistoryPageSchema>;

/** The CSV export's columns, in order. */
export const CREDIT_HISTORY_CSV_HEADERS = [
  'Date',
  'Entry',
  'Kind',
  'Credits',
  'Balance',
  'Reason',
  'Reference',
  'Note',
] as const;

/** The credit history: part of the account resource (`/credits`), written here with the job credits. */
export const creditHistoryRoutes = defineRoutes('account', {
  listCreditHistory: {
    method: 'GET',
    path: '/credits/history',
    auth: 'user',
    errors: [],
    summary:
      'The credit history: every ledger entry of the account (purchases, checks, bulk jobs, give-backs, refunds, admin adjustments, auto top-ups) with its running balance, newest first',
    query: CreditHistoryQuerySchema,
    response: CreditHistoryPageSchema,
  },
  exportCreditHistory: {
    method: 'GET',
    path: '/credits/history.csv',
    auth: 'user',
    errors: [],
    summary: 'The credit history as CSV, with the month filter of GET /credits/history, newest first',
    query: CreditHistoryFilterSchema,
  },
});
