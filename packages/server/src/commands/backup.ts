import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import {
  type BackupInput,
  backupOperation,
  backupRequest,
  MAX_BACKUP_SECONDS,
} from '../backup/backup-operation.js';
import type { BackupSummary } from '../backup/write-backup.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import {
  callLocalControl,
  findLocalControl,
  LocalControlUnreachable,
} from '../local-control/local-control.js';
import { formatBytes } from '../reference-data/data-status.js';
import { type DatabaseHandle, openDatabase } from '../storage/database.js';
import { CommandError } from './handle-error.js';

export interface BackupCommandIo {
  config(): ServerConfig;
  /** Opens the embedded database when no running server holds it. */
  open(config: ServerConfig): Promise<DatabaseHandle>;
  out(text: string): void;
  err(text: string): void;
}

const defaultIo: BackupCommandIo = {
  config: () => loadConfig(),
  open: (config) => openDatabase(config.database),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Backup and restore cover the embedded setup; PostgreSQL and S3 have their own tools. */
export function requireEmbedded(config: ServerConfig, command: string): void {
  if (config.database.kind === 'pglite') return;
  throw new CommandError(
    `scrub-server ${command} covers the embedded setup (no DATABASE_URL). On PostgreSQL, back up with pg_dump or base backups and WAL archiving, and the S3 bucket with versioning: docs/operations.md, Backups.`,
    2,
    'config',
  );
}

function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_BACKUP_SECONDS) {
    throw new InvalidArgumentError(`a whole number of seconds, 1 to ${MAX_BACKUP_SECONDS}`);
  }
  return n;
}

/** Through the running server when one holds the embedded database; otherwise on the database opened here. */
async function backUp(io: BackupCommandIo, config: ServerConfig, input: BackupInput): Promise<BackupSummary> {
  const channel = findLocalControl(config.dataDir);
  if (channel) {
    try {
      // A little longer than the server's own deadline, so that its answer says what went wrong.
      return await callLocalControl(channel, backupRequest, input, {
        timeoutMs: (input.timeout_seconds + 5) * 1000,
      });
    } catch (error) {
      // Not sent: opening the database here is safe, and says which process holds it if one does.
      if (!(error instanceof LocalControlUnreachable)) throw error;
    }
  }
  const database = await io.open(config);
  try {
    if (!database.dumpEmbedded)
      throw new CommandError('The embedded database is in memory: nothing to back up.');
    const operation = backupOperation({ dataDir: config.dataDir, dumpDatabase: database.dumpEmbedded });
    return await operation.run(database.db, input);
  } finally {
    await database.close();
  }
}

/** `scrub-server backup <destination>`: a consistent copy of the embedded database and the data directory's files, while the service runs. */
export function backupCommand(io: BackupCommandIo = defaultIo): Command {
  return new Command('backup')
    .description(
      "Copy the embedded database and the data directory's files (customers' files, signing keys, reference data) to a new directory, while the service runs",
    )
    .argument('<destination>', 'a new (or empty) directory, outside the data directory')
    .option('--timeout <seconds>', 'give up after this long', seconds, 600)
    .action(async (destination: string, options: { timeout: number }) => {
      const config = io.config();
      requireEmbedded(config, 'backup');
      const summary = await backUp(io, config, {
        destination: resolve(destination),
        timeout_seconds: options.timeout,
      });
      io.out(
        `Backed up ${config.dataDir} to ${summary.destination}: the database (${formatBytes(summary.database_bytes)}) and ${summary.files.toLocaleString('en-US')} files (${formatBytes(summary.file_bytes)}).\n`,
      );
      if (summary.vanished.length > 0) {
        io.err(
          `Deleted while the backup ran, so not in it: ${summary.vanished.join(', ')} (files a retention sweep removed).\n`,
        );
      }
      if (config.blobStore.kind === 's3') {
        io.err(
          `The files in the S3 bucket ${config.blobStore.bucket} are not in this backup: back the bucket up too (docs/operations.md, Backups).\n`,
        );
      }
    });
}
