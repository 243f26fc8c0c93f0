import { Command } from 'commander';
import type { Logger } from 'pino';
import { loadConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import { releaseStartMemory } from '../release-start-memory.js';
import { type RunningServer, startServer } from '../server.js';

/** After the grace period, how long closing the database and the rest may take before the process just exits. */
const LAST_CLOSE_MS = 5000;

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
        process.once(signal, () => shutDown(server, logger, signal));
      }
      // The embedded database's own process ended (SCRUB_EMBEDDED_DATABASE=process): no query can
      // be answered, so the service stops, exit code 1, for its supervisor or operator to start again.
      void server.database.lost?.then((error) => {
        logger.error({ err: error }, 'the embedded database stopped: the service stops');
        shutDown(server, logger, 'database lost', 1);
      });
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
      releaseStartMemoryAfterFirstAnswer(server);
    });
}

/** If no request comes, the start's memory is released this long after listening. */
const RELEASE_WITHOUT_REQUEST_MS = 5000;

/**
 * The start's garbage (migrations, the app's schemas, the reference data's files) is dead once the
 * service listens, but collecting it holds the event loop for 0.2-1 s: it waits until the first
 * request has been answered (a newcomer's first `/health` does not wait for it), or a few seconds.
 */
function releaseStartMemoryAfterFirstAnswer(server: RunningServer): void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearTimeout(timer);
    releaseStartMemory();
  };
  const timer = setTimeout(release, RELEASE_WITHOUT_REQUEST_MS);
  timer.unref();
  server.app.server.once('request', (_request, response) => {
    response.once('finish', () => setImmediate(release));
  });
}

/**
 * Stops taking connections and jobs, lets requests in flight and a running job finish within the
 * grace period (SCRUB_SHUTDOWN_GRACE_SECONDS), cuts what is left, then exits: 0 when nothing was
 * cut (and the database was not lost), 1 otherwise. A second signal ends the process at once (the
 * default action: the handler ran once).
 */
function shutDown(server: RunningServer, logger: Logger, signal: string, exitCode: 0 | 1 = 0): void {
  const graceSeconds = server.shutdown.graceMs / 1000;
  logger.info({ signal, grace_seconds: graceSeconds }, 'shutting down');
  // Whatever hangs past the grace period and the close after it (a database that does not answer), the process ends.
  setTimeout(() => {
    logger.error('shutdown did not finish: exiting anyway');
    process.exit(1);
  }, server.shutdown.graceMs + LAST_CLOSE_MS).unref();
  server.close().then(
    () => {
      const cut = server.shutdown.cut;
      if (cut.length > 0)
        logger.warn({ cut, grace_seconds: graceSeconds }, 'shut down, cutting what had not finished');
      else logger.info('shut down');
      process.exit(cut.length > 0 ? 1 : exitCode);
    },
    (error) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}
