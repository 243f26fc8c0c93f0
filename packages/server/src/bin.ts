#!/usr/bin/env node
import { Command } from 'commander';
import { backupCommand } from './commands/backup.js';
import { creditsCommand } from './commands/credits.js';
import { dataCommand } from './commands/data.js';
import { handleError, throwInsteadOfExiting } from './commands/handle-error.js';
import { mailCommand } from './commands/mail.js';
import { migrateCommand } from './commands/migrate.js';
import { proofKeyCommand } from './commands/proof-key.js';
import { restoreCommand } from './commands/restore.js';
import { startCommand } from './commands/start.js';
import { refuseUnknownCommand } from './commands/unknown-command.js';
import { serverVersion } from './version.js';

const program = new Command('scrub-server')
  .description('The Scrub service. Settings come from the environment: see docs/operations.md.')
  .version(serverVersion)
  // `--version` before a command is ours; after it, the command's own (`data import ... --version`).
  .enablePositionalOptions()
  .addCommand(startCommand(), { isDefault: true })
  .addCommand(migrateCommand())
  .addCommand(creditsCommand())
  .addCommand(mailCommand())
  .addCommand(dataCommand())
  .addCommand(proofKeyCommand())
  .addCommand(backupCommand())
  .addCommand(restoreCommand());

throwInsteadOfExiting(program);
Promise.resolve()
  .then(() => refuseUnknownCommand(program, process.argv.slice(2)))
  .then(() => program.parseAsync(process.argv))
  .catch((error: unknown) => process.exit(handleError(error)));
