import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { seedPlans } from './plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './storage/database.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  url: string;
  close(): Promise<void>;
}

/** Opens and migrates the database, seeds the catalogue, then listens. */
export async function startServer(config: ServerConfig, logger: Logger | false): Promise<RunningServer> {
  const database = await openDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.db);
    if (logger && applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    await seedPlans(database.db);
    const app = await buildApp({ config, database, logger });
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const shownHost = config.host === '0.0.0.0' || config.host === '127.0.0.1' ? 'localhost' : config.host;
    let closing: Promise<void> | undefined;
    return {
      app,
      database,
      url: `http://${shownHost}:${port}`,
      close() {
        closing ??= app.close().then(() => database.close());
        return closing;
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
