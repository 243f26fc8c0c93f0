import { z } from 'zod';
import { UserInfoSchema } from './account.js';
import { CheckLogEntrySchema } from './checks.js';
import { FileViewSchema } from './files.js';
import { PurchaseSchema } from './purchases.js';
import { defineRoutes } from './route-spec.js';

/**
 * `GET /account/export`: everything the service keeps about the account, in one JSON document,
 * to keep before deleting the account: the profile, every file (with its links while they last),
 * every purchase and the phone log.
 */
export const AccountExportSchema = z
  .object({
    exported_at: z.string(),
    account: UserInfoSchema,
    files: z.array(FileViewSchema),
    purchases: z.array(PurchaseSchema),
    checks: z.array(CheckLogEntrySchema),
  })
  .meta({ id: 'AccountExport' });
export type AccountExport = z.infer<typeof AccountExportSchema>;

/** `DELETE /account`: the account's own e-mail address, typed again, confirms it. */
export const DeleteAccountSchema = z.object({ confirm_email: z.string().trim().max(320) }).strict();
export type DeleteAccount = z.infer<typeof DeleteAccountSchema>;

export const DeletedAccountSchema = z
  .object({
    message: z.string(),
    /** What stays: the ledger and audit rows, under this id, without the e-mail address. */
    tombstone_id: z.string(),
  })
  .meta({ id: 'DeletedAccount' });
export type DeletedAccount = z.infer<typeof DeletedAccountSchema>;

export const accountDataRoutes = defineRoutes('account', {
  exportAccount: {
    method: 'GET',
    path: '/account/export',
    auth: 'user',
    summary: 'Everything kept about the account as one JSON document: profile, files, purchases, phone log',
    response: AccountExportSchema,
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/account',
    auth: 'user',
    ownerOnly: true,
    errors: ['validation_failed', 'conflict', 'service_unavailable', 'storage_unavailable'],
    summary:
      'Delete the account: files, phone log, suppression list, webhooks, API keys, saved cards and the sign-in go; the ledger and audit rows stay without the e-mail. Refused to acting sessions',
    body: DeleteAccountSchema,
    response: DeletedAccountSchema,
  },
});
