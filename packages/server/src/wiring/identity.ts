import { join } from 'node:path';
import {
  defaultTuning,
  type HostRefusal,
  IdentityPool,
  registerIdentityProtocol,
} from '@scrub/cognito-local';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import type { Mailer } from '../mail/mailer.js';
import type { DatabaseHandle } from '../storage/database.js';

export interface IdentitySetupOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  logger: Logger | false;
  mailer: Mailer;
  publicUrl: () => string;
}

/** The signing key lives in the data directory, except beside an in-memory database (tests). */
function keyDir(config: ServerConfig): string | null {
  const inMemory = config.database.kind === 'pglite' && config.database.dataDir === null;
  return inMemory ? null : join(config.dataDir, 'identity');
}

/** The service's own refusals before the pool runs (its rate limit, its NUL guard), for Cognito's answer. */
function hostRefusal(error: unknown): HostRefusal | null {
  if (!(error instanceof ApiError)) return null;
  return {
    status: error.status,
    message: error.message,
    throttled: error.code === 'rate_limited',
    ...(error.extra.headers ? { headers: error.extra.headers } : {}),
  };
}

/**
 * Starts the built-in user pool (@scrub/cognito-local) and serves its protocol, unless an Amazon Cognito pool is
 * configured: then Cognito does all of it and this returns null.
 */
export async function setUpIdentity(
  app: FastifyInstance,
  { config, database, logger, mailer, publicUrl }: IdentitySetupOptions,
): Promise<IdentityPool | null> {
  if (config.cognito) return null;
  const pool = await IdentityPool.create({
    db: database.db,
    mailer,
    logger,
    userPoolId: config.localIdentity.userPoolId,
    clientId: config.localIdentity.clientId,
    publicUrl,
    tokenTtlSeconds: config.localIdentity.tokenTtlSeconds,
    refreshTokenTtlSeconds: config.localIdentity.refreshTokenTtlSeconds,
    keyDir: keyDir(config),
    tuning: {
      signUps: config.signUpsPerAddress,
      signInFailures: {
        ...defaultTuning.signInFailures,
        address: { ...defaultTuning.signInFailures.address, ...config.signInFailuresPerAddress },
      },
    },
  });
  await registerIdentityProtocol(app, pool, { hostRefusal });
  return pool;
}
