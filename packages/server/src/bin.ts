#!/usr/bin/env node
import { Command } from 'commander';
import { creditsCommand } from './account/credits-command.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { mailCommand } from './mail/mail-command.js';
import { dataCommand } from './reference-data/data-command.js';
import { startServer } from './server.js';
import { migrateToLatest, openDatabase } from './storage/database.js';
import { serverVersion } from './version.js';

function fail(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`scrub-server: ${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}

const program = new Command('scrub-server')
  .description('The Scrub service. Settings come from the environment: see docs/operations.md.')
  .version(serverVersion)
  // `--version` before a command is ours; after it, the command's own (`data import ... --version`).
  .enablePositionalOptions();

program
  .command('start', { isDefault: true })
  .description('Migrate the database, seed the plan catalogue and serve the API')
  .action(async () => {
    const config = loadConfig();
    const logger = createLogger(config.logLevel);
    const server = await startServer(config, logger);
    // Before the banner: whoever reads it may stop us at once.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        logger.info({ signal }, 'shutting down');
        server.close().then(
          () => process.exit(0),
          (error) => {
            logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
    const where =
      config.database.kind === 'pglite'
        ? `embedded PostgreSQL in ${config.database.dataDir}`
        : 'PostgreSQL (DATABASE_URL)';
    process.stderr.write(
      [
        '',
        `  Scrub is running at ${server.url}  (${where})`,
        '',
        '  Try:',
        `    curl ${server.url}/plans`,
        `    curl ${server.url}/health`,
        '    npx -y pnpm@10 -s scrub plans     (the CLI, from this repository; or pnpm -s scrub plans)',
        '',
        '  Stop with Ctrl+C. Your data stays where it is for the next start.',
        '',
      ].join('\n'),
    );
  });

program
  .command('migrate')
  .description('Bring the database schema up to date and exit')
  .action(async () => {
    const config = loadConfig();
    const database = await openDatabase(config.database);
    try {
      const applied = await migrateToLatest(database.db);
      process.stdout.write(
        applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n',
      );
    } finally {
      await database.close();
    }
  });

program.addCommand(creditsCommand());
program.addCommand(mailCommand());
program.addCommand(dataCommand());

program.parseAsync(process.argv).catch(fail);
