import { z } from 'zod';

/** How many imports the manifest remembers for `data status`. */
export const HISTORY_LENGTH = 50;

/** An FTC subscription account number (SAN), as the FTC's site shows it: letters, digits, dashes. */
const FTC_ACCOUNT = /^[A-Za-z0-9-]{1,32}$/;

/** Why an FTC subscription account number cannot be recorded, or null when it can. */
export function ftcAccountProblem(account: string): string | null {
  return FTC_ACCOUNT.test(account)
    ? null
    : `"${account}" is not a subscription account number: letters, digits and dashes, at most 32`;
}

/** One import of a do-not-call list, as `data status` lists it: newest last in the manifest, newest first when shown. */
export const ImportHistoryEntry = z.object({
  dataset: z.string(),
  version: z.string(),
  kind: z.string(),
  /** The files' names, as the operator gave them. */
  files: z.array(z.string()),
  /** `command`: `scrub-server data import`; `inbox`: a file dropped in SCRUB_DNC_INBOX. */
  via: z.enum(['command', 'inbox']),
  importedAt: z.string(),
  releasedOn: z.string().optional(),
  /** The FTC subscription account number the registry was downloaded under. */
  ftcAccount: z.string().optional(),
  /** The inbox file's SHA-256. */
  sha256: z.string().optional(),
});
export type ImportHistoryEntry = z.infer<typeof ImportHistoryEntry>;

/** Where an import's file came from, when not from the command line. */
export interface ImportOrigin {
  via: 'inbox';
  sha256: string;
}

/** The history with `entry` added, the oldest dropped past HISTORY_LENGTH. */
export function withEntry(history: readonly ImportHistoryEntry[], entry: ImportHistoryEntry) {
  return [...history, entry].slice(-HISTORY_LENGTH);
}
