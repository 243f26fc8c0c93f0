import { Command } from 'commander';
import { loadConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { releaseStartMemory } from '../release-start-memory.js';
import { startServer } from '../server.js';

/** `scrub-server start` (the default command): migrate, seed the plan catalogue, serve until a signal. */
export function startCommand(): Command {
  return new Command('start')
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
      // The start's garbage (migrations, the app's schemas, the reference data's files) is dead now.
      releaseStartMemory();
    });
}
