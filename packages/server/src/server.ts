import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { seedPlans } from './plans/plan-store.js';
import { ReferenceData } from './reference-data/reference-data.js';
import { secureDataDir } from './storage/data-dir.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './storage/database.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** What checks answer from; follows `scrub-server data import` in the data directory. */
  referenceData: ReferenceData;
  url: string;
  close(): Promise<void>;
}

/** Opens and migrates the database, seeds the catalogue, loads the reference data, then listens. */
export async function startServer(config: ServerConfig, logger: Logger | false): Promise<RunningServer> {
  // With PostgreSQL and S3 nothing need be written there, and the directory may not exist (nor be creatable).
  const keepsDataHere =
    (config.database.kind === 'pglite' && config.database.dataDir !== null) ||
    config.blobStore.kind === 'local';
  secureDataDir(config.dataDir, { create: keepsDataHere });
  const database = await openDatabase(config.database);
  let referenceData: ReferenceData | undefined;
  try {
    const applied = await migrateToLatest(database.db);
    if (logger && applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await seedPlans(database.db);
    const data = await ReferenceData.open(config, logger);
    referenceData = data;
    const app = await buildApp({ config, database, logger, referenceData: data });
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const shownHost = config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host;
    let closing: Promise<void> | undefined;
    return {
      app,
      database,
      referenceData: data,
      url: `http://${shownHost}:${port}`,
      close() {
        closing ??= app
          .close()
          .then(() => data.close())
          .then(() => database.close());
        return closing;
      },
    };
  } catch (error) {
    await referenceData?.close();
    await database.close();
    throw error;
  }
}
