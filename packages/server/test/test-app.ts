import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.js';
import { loadConfig, type ServerConfig } from '../src/config.js';
import { seedPlans } from '../src/plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/storage/database.js';

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * The whole API, for `app.inject`: on a fresh in-memory database, or on `database` (from
 * `testDatabases()`), which the app then owns and closes.
 */
export async function createTestApp(
  overrides: Partial<ServerConfig> = {},
  options: Pick<AppOptions, 'tokenVerifier' | 'referenceData'> & { database?: DatabaseHandle } = {},
): Promise<TestApp> {
  // Suites sign up many accounts from one address: that limit is raised (its own tests set it).
  const config = loadConfig(
    { SCRUB_SIGN_UPS_PER_ADDRESS: '100000/h', SCRUB_SIGN_IN_FAILURES_PER_ADDRESS: '100000/h' },
    { database: { kind: 'pglite', dataDir: null }, ...overrides },
  );
  const database = options.database ?? (await openDatabase(config.database));
  await migrateToLatest(database.db);
  await seedPlans(database.db);
  const app = await buildApp({
    config,
    database,
    logger: false,
    tokenVerifier: options.tokenVerifier,
    referenceData: options.referenceData,
  });
  return {
    app,
    config,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
