#!/usr/bin/env -S node --liftoff-only
// `--liftoff-only`: the embedded database (PGlite) is PostgreSQL compiled to WebAssembly. V8
// compiles it with its baseline compiler (Liftoff), then recompiles the functions that run often
// with its optimising one (TurboFan); a few of PostgreSQL's functions are huge, and optimising
// them took about 500 MB for a moment, seconds after the database opened, and left the process
// 70 MB larger. The baseline code answers as fast for this service's queries (bench/verify.ts),
// so the optimising compiler is left out. It concerns WebAssembly only (none of the service's own
// code is), and V8 reads it only at start: `v8.setFlagsFromString` comes too late.
// bench/memory.ts measures it; docs/benchmarks.md (issue 16, goal 7).
import { Command } from 'commander';
import { creditsCommand } from './commands/credits.js';
import { dataCommand } from './commands/data.js';
import { handleError, throwInsteadOfExiting } from './commands/handle-error.js';
import { mailCommand } from './commands/mail.js';
import { migrateCommand } from './commands/migrate.js';
import { proofKeyCommand } from './commands/proof-key.js';
import { startCommand } from './commands/start.js';
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
  .addCommand(proofKeyCommand());

throwInsteadOfExiting(program)
  .parseAsync(process.argv)
  .catch((error: unknown) => process.exit(handleError(error)));
