import cors, { type FastifyCorsOptions } from '@fastify/cors';
import { IDENTITY_PATH, jwksPath } from '@scrub/cognito-local';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config/config.js';

type CorsOptions = Omit<FastifyCorsOptions, 'delegator' | 'hook'>;

/**
 * The built-in user pool's endpoint and keys, like Amazon Cognito's: any origin, since no cookie
 * is involved (tokens travel in bodies), with the headers amazon-cognito-identity-js sends.
 */
const identityRule: CorsOptions = {
  origin: '*',
  methods: ['POST'],
  allowedHeaders: ['content-type', 'x-amz-target', 'x-amz-user-agent', 'cache-control'],
  exposedHeaders: ['x-amzn-requestid', 'x-amzn-errortype'],
  maxAge: 86_400,
};
const jwksRule: CorsOptions = { origin: '*', methods: ['GET'] };

/**
 * The API and the upload URLs, for a dashboard hosted on another origin: only the origins listed
 * in SCRUB_CORS_ORIGINS, echoed one at a time. Never credentials: the API reads a bearer token or
 * an API key from headers, not cookies, so a browser has nothing ambient to send.
 */
function allowListRule(origins: string[]): CorsOptions {
  return {
    origin: origins,
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'accept',
      'authorization',
      'content-type',
      'idempotency-key',
      'x-api-key',
      'x-scrub-client',
    ],
    exposedHeaders: ['x-request-id', 'retry-after', 'content-disposition', 'etag'],
    maxAge: 600,
  };
}

/** The operator channel is for the operator's tools on this machine, never for a browser elsewhere. */
const OPERATOR_PREFIX = '/_local/';

/**
 * CORS for the whole app, in one place and registered once (the plugin adds an app-wide hook and
 * an `OPTIONS *` route, so a second registration would clash). Preflights are answered in its
 * `onRequest` hook, before body parsing or authentication.
 */
export async function installCors(app: FastifyInstance, config: ServerConfig): Promise<void> {
  // With an Amazon Cognito pool, Cognito serves identity: these paths are not this server's.
  const jwks = config.cognito ? null : jwksPath(config.localIdentity.userPoolId);
  const identity = config.cognito ? null : IDENTITY_PATH;
  const allowList = config.corsOrigins.length > 0 ? allowListRule(config.corsOrigins) : null;
  const none: CorsOptions = { origin: false };
  await app.register(cors, {
    delegator: (request, callback) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (path === identity) return callback(null, identityRule);
      if (path === jwks) return callback(null, jwksRule);
      if (path.startsWith(OPERATOR_PREFIX) || !allowList) return callback(null, none);
      callback(null, allowList);
    },
  });
}
