import type { FastifyInstance } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.js';
import { loadConfig, type ServerConfig } from '../src/config/config.js';
import { seedPlans } from '../src/plans/plan-store.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../src/storage/database.js';

/**
 * Suites sign up many accounts, type wrong passwords and check numbers as fast as they can, all
 * from one address: the limits are raised for them, not switched off (every request is still
 * counted). A test of a limit passes its own `rateLimits` or settings.
 */
export const TEST_LIMITS = {
  SCRUB_RATE_LIMIT_PER_KEY: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ACCOUNT: '1000000/s',
  SCRUB_RATE_LIMIT_PER_ADDRESS: '1000000/s',
  SCRUB_SIGN_UPS_PER_ADDRESS: '100000/h',
  SCRUB_SIGN_IN_FAILURES_PER_ADDRESS: '100000/h',
};

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
  // Suites hammer one key from one address: the limits are raised (their own tests set them).
  const config = loadConfig(TEST_LIMITS, { database: { kind: 'pglite', dataDir: null }, ...overrides });
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
