import { resolve } from 'node:path';
import { Command } from 'commander';
import { restoreBackup } from '../backup/restore-backup.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { formatBytes } from '../reference-data/data-status.js';
import { requireEmbedded } from './backup.js';

export interface RestoreCommandIo {
  config(): ServerConfig;
  out(text: string): void;
}

const defaultIo: RestoreCommandIo = {
  config: () => loadConfig(),
  out: (text) => process.stdout.write(text),
};

/** `scrub-server restore <source>`: a backup, verified whole, into a new data directory (SCRUB_DATA_DIR). */
export function restoreCommand(io: RestoreCommandIo = defaultIo): Command {
  return new Command('restore')
    .description(
      'Restore a backup made by `scrub-server backup` into the data directory (SCRUB_DATA_DIR), which must be new or empty; every file is checked first',
    )
    .argument('<source>', 'the backup directory')
    .option('--force', 'replace what a non-empty data directory holds (never while a server uses it)')
    .action(async (source: string, options: { force?: boolean }) => {
      const config = io.config();
      requireEmbedded(config, 'restore');
      const restored = await restoreBackup(resolve(source), config.dataDir, {
        force: options.force === true,
      });
      io.out(
        `Restored the backup of ${restored.createdAt} into ${restored.dataDir}: the database (${formatBytes(restored.databaseBytes)}) and ${restored.files.toLocaleString('en-US')} files (${formatBytes(restored.fileBytes)}). Start scrub-server with SCRUB_DATA_DIR=${restored.dataDir}.\n`,
      );
    });
}
