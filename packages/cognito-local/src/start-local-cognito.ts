import type { AddressInfo } from 'node:net';
import { openEmbeddedDatabase } from '@scrub/pglite-pool';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { CodeMailer } from './code-mail.js';
import type { HostDatabase } from './host-database.js';
import { IdentityPool, type PoolTuning } from './identity-pool.js';
import { MailBox } from './mail-box.js';
import { IDENTITY_PATH, registerIdentityProtocol } from './protocol.js';
import { createIdentityTables } from './schema.js';
import type { MfaRequirement } from './sign-in.js';

export interface StartLocalCognitoOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  host?: string;
  /** `<region>_<name>`, as Cognito's; the default is `us-east-1_local`. */
  userPoolId?: string;
  /** The one app client the pool answers; the default is `localclient0000000000000000`. */
  clientId?: string;
  /** Groups the pool starts with (for `cognito:groups`). */
  groups?: readonly string[];
  /** Where code e-mails go; by default a `MailBox` that prints each subject (with its code). */
  mailer?: CodeMailer;
  /**
   * A database that has the pool's tables (`createIdentityTables`); the caller closes it. Without
   * one, a fresh in-memory database, closed with the pool.
   */
  db?: HostDatabase;
  /** Where the signing key is kept; null (the default): a fresh key in memory. */
  keyDir?: string | null;
  tokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
  tuning?: Partial<PoolTuning>;
  /** Whether a user (by groups or e-mail) must sign in with an authenticator code (default: nobody). */
  requireMfa?: MfaRequirement;
  logger?: FastifyBaseLogger | false;
}

export interface RunningLocalCognito {
  /** `http://127.0.0.1:<port>`; the issuer of the pool's tokens is `<url>/<userPoolId>`. */
  url: string;
  port: number;
  /** Give this as `endpoint` to amazon-cognito-identity-js's `CognitoUserPool` or the AWS SDK's client. */
  endpoint: string;
  userPoolId: string;
  clientId: string;
  pool: IdentityPool;
  mailer: CodeMailer;
  close(): Promise<void>;
}

/**
 * The pool on a port of its own: `POST /identity` (the Cognito user pool JSON protocol) and
 * `GET /<userPoolId>/.well-known/jwks.json`.
 */
export async function startLocalCognito(
  options: StartLocalCognitoOptions = {},
): Promise<RunningLocalCognito> {
  const db = options.db ?? (await openEmbeddedDatabase());
  if (!options.db) await createIdentityTables(db);
  const app = Fastify({ loggerInstance: options.logger || undefined });
  const url = () => `http://${options.host ?? '127.0.0.1'}:${(app.server.address() as AddressInfo).port}`;
  const mailer = options.mailer ?? new MailBox((line) => process.stdout.write(`${line}\n`));
  const pool = await IdentityPool.create({
    db,
    mailer,
    logger: options.logger ?? false,
    userPoolId: options.userPoolId ?? 'us-east-1_local',
    clientId: options.clientId ?? 'localclient0000000000000000',
    publicUrl: url,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 30 * 86_400,
    keyDir: options.keyDir ?? null,
    ...(options.tuning ? { tuning: options.tuning } : {}),
    ...(options.requireMfa ? { requireMfa: options.requireMfa } : {}),
  });
  const existing = new Set((await pool.admin.listGroups()).map((g) => g.name));
  for (const [precedence, name] of (options.groups ?? []).entries()) {
    if (!existing.has(name)) await pool.admin.createGroup({ name, precedence });
  }
  await registerIdentityProtocol(app, pool);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    url: url(),
    port: (app.server.address() as AddressInfo).port,
    endpoint: `${url()}${IDENTITY_PATH}`,
    userPoolId: pool.userPoolId,
    clientId: pool.clientId,
    pool,
    mailer,
    async close() {
      await app.close();
      if (!options.db) await db.destroy();
    },
  };
}
