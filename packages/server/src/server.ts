import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { ServerConfig } from './config/config.js';
import { seedPlans } from './plans/plan-store.js';
import { ReferenceData } from './reference-data/reference-data.js';
import { secureDataDir } from './storage/data-dir.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './storage/database.js';
import { Shutdown } from './wiring/shutdown.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** What checks answer from; follows `scrub-server data import` in the data directory. */
  referenceData: ReferenceData;
  url: string;
  /** The close's deadline, and what the close had to cut at it (docs/operations.md, Shutdown). */
  shutdown: Shutdown;
  close(): Promise<void>;
}

/**
 * Opens and migrates the database, seeds the catalogue, loads the reference data, then listens.
 * The reference data loads while the database opens: neither needs the other, and the service
 * listens only once both are ready (a check never answers without its data).
 */
export async function startServer(config: ServerConfig, logger: Logger | false): Promise<RunningServer> {
  // Each step's time since the process started, at debug level (SCRUB_LOG_LEVEL=debug): where a start goes.
  const step = (name: string) => {
    if (logger) logger.debug({ at: Date.now(), ms: Math.round(performance.now()) }, `start: ${name}`);
  };
  step('modules loaded');
  // With PostgreSQL and S3 nothing need be written there, and the directory may not exist (nor be creatable).
  const keepsDataHere =
    (config.database.kind === 'pglite' && config.database.dataDir !== null) ||
    config.blobStore.kind === 'local';
  secureDataDir(config.dataDir, { create: keepsDataHere });
  const [opened, loaded] = await Promise.allSettled([
    openDatabase(config.database).then((opened) => {
      step('database opened');
      return opened;
    }),
    ReferenceData.open(config, logger).then((loaded) => {
      step('reference data loaded');
      return loaded;
    }),
  ]);
  if (opened.status === 'rejected' || loaded.status === 'rejected') {
    if (opened.status === 'fulfilled') await opened.value.close();
    if (loaded.status === 'fulfilled') await loaded.value.close();
    throw opened.status === 'rejected' ? opened.reason : (loaded as PromiseRejectedResult).reason;
  }
  const database = opened.value;
  const data = loaded.value;
  try {
    const applied = await migrateToLatest(database.db);
    if (logger && applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    step('database migrated');
    await seedPlans(database.db);
    step('plans seeded');
    const shutdown = new Shutdown(config.timeouts.shutdownGraceMs);
    const app = await buildApp({ config, database, logger, referenceData: data, shutdown });
    step('app built');
    await app.listen({ host: config.host, port: config.port });
    step('listening');
    if (logger && app.metricsUrl) logger.info({ url: app.metricsUrl }, 'metrics served');
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const shownHost = config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host;
    let closing: Promise<void> | undefined;
    return {
      app,
      database,
      referenceData: data,
      url: `http://${shownHost}:${port}`,
      shutdown,
      close() {
        closing ??= app
          .close()
          .then(() => data.close())
          .then(() => database.close());
        return closing;
      },
    };
  } catch (error) {
    await data.close();
    await database.close();
    throw error;
  }
}
