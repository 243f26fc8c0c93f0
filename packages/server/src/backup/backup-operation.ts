import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import type { LocalOperation } from '../local-control/local-control.js';
import { type BackupSource, type BackupSummary, writeBackup } from './write-backup.js';

/** The most a backup may be given: a day. */
export const MAX_BACKUP_SECONDS = 86_400;

const BackupInput = z.object({
  /** An absolute path on the server's machine (the command resolves it). */
  destination: z.string().min(1),
  /** How long it may take, waiting for the database included. */
  timeout_seconds: z.number().int().min(1).max(MAX_BACKUP_SECONDS),
});
export type BackupInput = z.output<typeof BackupInput>;

/** How `scrub-server backup` reaches a running server: the request alone, without the work. */
export const backupRequest = { method: 'POST', path: '/backup' } as const;

/**
 * `scrub-server backup`, as the server that holds the embedded database runs it (through the
 * operator channel) or as the command runs it on a database it opened itself.
 */
export function backupOperation(source: BackupSource): LocalOperation<BackupInput, BackupSummary> {
  return {
    ...backupRequest,
    input: BackupInput,
    run: (_db, input) =>
      writeBackup(source, input.destination, Date.now() + input.timeout_seconds * 1000).catch(
        (error: unknown) => {
          throw relayed(error);
        },
      ),
  };
}

/**
 * The reason a backup failed, as the operator's command should print it: a full or unwritable
 * destination, a database that stayed busy. The server would otherwise answer those as its own
 * faults (or as its file store's) without saying what happened.
 */
function relayed(error: unknown): unknown {
  if (error instanceof ApiError || !(error instanceof Error)) return error;
  if (error.name === 'DatabaseBusy') return new ApiError('service_unavailable', error.message);
  return new ApiError('internal_error', `The backup failed: ${error.message}`);
}
