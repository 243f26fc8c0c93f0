import { join } from 'node:path';
import {
  defaultTuning,
  type HostRefusal,
  IdentityPool,
  registerIdentityProtocol,
  TokenRejected,
} from '@scrub/cognito-local';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { isAdminRole, roleOfIdentity } from '../auth/roles.js';
import { createTokenVerifier, type TokenVerifier } from '../auth/token-verifier.js';
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
    // Every admin (by group, or named in SCRUB_ADMIN_EMAILS) without an authenticator is sent to
    // enrol at sign-in (MFA_SETUP), and cannot turn it off.
    requireMfa: (user) =>
      config.requireMfaFor.includes('admin') && isAdminRole(roleOfIdentity(user, config.adminEmails)),
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

/**
 * The built-in pool's ID tokens: signature, issuer, audience and expiry as for any Cognito pool,
 * then whether their sign-in is still alive and their user enabled. A user's own sign-out
 * everywhere (`GlobalSignOut`), password change (`ChangePassword`) or reset
 * (`ConfirmForgotPassword`) revokes the pool's sign-ins, so their ID tokens stop here at once, as
 * they do after an admin's sign-out. One indexed query per ID-token request (the dashboard's
 * traffic: API keys, the checks' hot path, never come here).
 */
export function builtInTokenVerifier(pool: IdentityPool): TokenVerifier {
  return async (token) => {
    // Built per token: the pool's issuer carries the listening port, known only once listening.
    const identity = await createTokenVerifier({
      issuer: pool.issuer,
      audience: pool.clientId,
      jwks: pool.keySet,
    })(token);
    try {
      await pool.verifyToken(token, 'id');
    } catch (error) {
      if (!(error instanceof TokenRejected)) throw error;
      if (/revoked/i.test(error.message)) {
        throw new ApiError(
          'unauthorized',
          'This token was issued before the account was signed out or its password changed. Sign in again.',
        );
      }
      throw new ApiError(
        'account_disabled',
        'This account has been disabled. Contact support to restore it.',
      );
    }
    return identity;
  };
}
