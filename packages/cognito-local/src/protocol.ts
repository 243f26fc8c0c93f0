import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CognitoError } from './errors.js';
import type { IdentityPool } from './identity-pool.js';
import type { PoolClient } from './throttles.js';

/** Where clients point `endpoint` (amazon-cognito-identity-js) or `endpoint` (AWS SDK): `<public URL>/identity`. */
export const IDENTITY_PATH = '/identity';
export const jwksPath = (userPoolId: string) => `/${userPoolId}/.well-known/jwks.json`;

const CONTENT_TYPE = 'application/x-amz-json-1.1';
const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

const attribute = z.object({ Name: z.string().min(1).max(32), Value: z.string().max(2048) });
const clientId = z.string().min(1).max(128);
const username = z.string().min(1).max(128);
const password = z.string().min(1).max(256);
const code = z.string().min(1).max(2048);
const token = z.string().min(1).max(20_000);
/** `{ Enabled, PreferredMfa }`; the client sends null for a kind of MFA it leaves alone. */
const mfaSettings = z
  .object({ Enabled: z.boolean().nullish(), PreferredMfa: z.boolean().nullish() })
  .nullish()
  .transform((s) =>
    s
      ? {
          ...(typeof s.Enabled === 'boolean' ? { Enabled: s.Enabled } : {}),
          ...(typeof s.PreferredMfa === 'boolean' ? { PreferredMfa: s.PreferredMfa } : {}),
        }
      : undefined,
  );
/** Clients send absent optional parameters as null (amazon-cognito-identity-js: `DEVICE_KEY: null`). */
const parameters = z
  .record(z.string(), z.string().max(20_000).nullable())
  .transform((record) =>
    Object.fromEntries(
      Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
  );

interface Operation {
  input: z.ZodType;
  run: (pool: IdentityPool, input: never, client: PoolClient) => Promise<object>;
}

const op = <S extends z.ZodType>(
  input: S,
  run: (pool: IdentityPool, input: z.output<S>, client: PoolClient) => Promise<object>,
): Operation => ({ input, run });

/** The request shapes Cognito documents, as far as this pool reads them; other fields are ignored. */
const operations: Record<string, Operation> = {
  SignUp: op(
    z.object({
      ClientId: clientId,
      Username: username,
      Password: password,
      UserAttributes: z.array(attribute).max(50).nullish(),
    }),
    (pool, i, client) => pool.signUp({ ...i, UserAttributes: i.UserAttributes ?? [] }, client),
  ),
  ConfirmSignUp: op(z.object({ ClientId: clientId, Username: username, ConfirmationCode: code }), (pool, i) =>
    pool.confirmSignUp(i),
  ),
  ResendConfirmationCode: op(z.object({ ClientId: clientId, Username: username }), (pool, i) =>
    pool.resendConfirmationCode(i),
  ),
  InitiateAuth: op(
    z.object({ ClientId: clientId, AuthFlow: z.string().min(1), AuthParameters: parameters.nullish() }),
    (pool, i, client) => pool.initiateAuth({ ...i, AuthParameters: i.AuthParameters ?? {} }, client),
  ),
  RespondToAuthChallenge: op(
    z.object({
      ClientId: clientId,
      ChallengeName: z.string().min(1),
      Session: z.string().max(4096).nullish(),
      ChallengeResponses: parameters.nullish(),
    }),
    (pool, i) =>
      pool.respondToAuthChallenge({
        ClientId: i.ClientId,
        ChallengeName: i.ChallengeName,
        Session: i.Session ?? undefined,
        ChallengeResponses: i.ChallengeResponses ?? {},
      }),
  ),
  ForgotPassword: op(z.object({ ClientId: clientId, Username: username }), (pool, i) =>
    pool.forgotPassword(i),
  ),
  ConfirmForgotPassword: op(
    z.object({ ClientId: clientId, Username: username, ConfirmationCode: code, Password: password }),
    (pool, i) => pool.confirmForgotPassword(i),
  ),
  ChangePassword: op(
    z.object({ AccessToken: token, PreviousPassword: password, ProposedPassword: password }),
    (pool, i, client) => pool.changePassword(i, client),
  ),
  AssociateSoftwareToken: op(
    z
      .object({ AccessToken: token.nullish(), Session: z.string().max(4096).nullish() })
      .refine((i) => i.AccessToken || i.Session, 'Member must not be null: AccessToken or Session'),
    (pool, i) =>
      pool.associateSoftwareToken({
        ...(i.AccessToken ? { AccessToken: i.AccessToken } : {}),
        ...(i.Session ? { Session: i.Session } : {}),
      }),
  ),
  VerifySoftwareToken: op(
    z
      .object({
        AccessToken: token.nullish(),
        Session: z.string().max(4096).nullish(),
        UserCode: z.string().min(6).max(6),
        FriendlyDeviceName: z.string().max(256).nullish(),
      })
      .refine((i) => i.AccessToken || i.Session, 'Member must not be null: AccessToken or Session'),
    (pool, i) =>
      pool.verifySoftwareToken({
        UserCode: i.UserCode,
        ...(i.AccessToken ? { AccessToken: i.AccessToken } : {}),
        ...(i.Session ? { Session: i.Session } : {}),
        ...(i.FriendlyDeviceName ? { FriendlyDeviceName: i.FriendlyDeviceName } : {}),
      }),
  ),
  SetUserMFAPreference: op(
    z.object({
      AccessToken: token,
      SoftwareTokenMfaSettings: mfaSettings,
      SMSMfaSettings: mfaSettings,
      EmailMfaSettings: mfaSettings,
    }),
    (pool, i) =>
      pool.setUserMfaPreference({
        AccessToken: i.AccessToken,
        ...(i.SoftwareTokenMfaSettings ? { SoftwareTokenMfaSettings: i.SoftwareTokenMfaSettings } : {}),
        ...(i.SMSMfaSettings ? { SMSMfaSettings: i.SMSMfaSettings } : {}),
        ...(i.EmailMfaSettings ? { EmailMfaSettings: i.EmailMfaSettings } : {}),
      }),
  ),
  GetUser: op(z.object({ AccessToken: token }), (pool, i) => pool.getUser(i)),
  GlobalSignOut: op(z.object({ AccessToken: token }), (pool, i) => pool.globalSignOut(i)),
  RevokeToken: op(z.object({ ClientId: clientId, Token: token }), (pool, i) => pool.revokeToken(i)),
};

/** The operation names this pool answers, for documentation and tests. */
export const supportedOperations = Object.keys(operations);

/** "1 validation error detected: Value at 'clientId' failed to satisfy constraint: ...", as AWS words it. */
function validationMessage(error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || 'body';
    const field = path.charAt(0).toLowerCase() + path.slice(1);
    const what =
      issue.code === 'invalid_type' && issue.input === undefined ? 'Member must not be null' : issue.message;
    return `Value at '${field}' failed to satisfy constraint: ${what}`;
  });
  return `${lines.length} validation error${lines.length === 1 ? '' : 's'} detected: ${lines.join('; ')}`;
}

function sendError(reply: FastifyReply, error: CognitoError): FastifyReply {
  return reply
    .status(error.status)
    .header('content-type', CONTENT_TYPE)
    .header('x-amzn-errortype', `${error.type}:`)
    .send(JSON.stringify({ __type: error.type, message: error.message }));
}

/**
 * An error the host's own hooks threw before an operation ran (its rate limiter, its body
 * guards), as the host describes it, so the pool can answer it in Cognito's shape.
 */
export interface HostRefusal {
  status: number;
  message: string;
  /** Too many requests: answered as Cognito's throttling error, which the AWS SDKs retry. */
  throttled: boolean;
  headers?: Record<string, string>;
}

export interface IdentityProtocolOptions {
  /** Recognises the host's own errors; null for any other error. */
  hostRefusal?: (error: unknown) => HostRefusal | null;
}

/** Failures before the handler (the body parser) in Cognito's shape rather than the host's envelope. */
function toCognitoError(error: FastifyError, refusal: HostRefusal | null): CognitoError | null {
  if (error instanceof CognitoError) return error;
  if (refusal?.throttled) return new CognitoError('TooManyRequestsException', refusal.message, 429);
  // Refused by the host's own guards before the operation ran (a NUL character in the body).
  if (refusal && refusal.status < 500) {
    return new CognitoError('InvalidParameterException', refusal.message, refusal.status);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new CognitoError('SerializationException', `Send the request as ${CONTENT_TYPE}.`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new CognitoError('InvalidParameterException', 'The request body is too large.', 413);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new CognitoError('SerializationException', 'The request body is not valid JSON.');
    default:
      return error.statusCode !== undefined && error.statusCode < 500
        ? new CognitoError('InvalidParameterException', error.message, error.statusCode)
        : null;
  }
}

/**
 * `POST /identity`: the Cognito user pool JSON 1.1 protocol (the operation is named by
 * `X-Amz-Target`), and `GET /<pool id>/.well-known/jwks.json`. Registered in a scope of its own, so
 * its body parser and its error answers (`{"__type": ..., "message": ...}`) apply here only, never
 * the API's error envelope.
 */
export async function registerIdentityProtocol(
  app: FastifyInstance,
  pool: IdentityPool,
  options: IdentityProtocolOptions = {},
): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new CognitoError('SerializationException', 'The request body is not valid JSON.'), undefined);
      }
    });

    scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const refusal = options.hostRefusal?.(error) ?? null;
      const known = toCognitoError(error, refusal);
      if (refusal?.headers) reply.headers(refusal.headers);
      if (known) return sendError(reply, known);
      request.log.error({ err: error }, 'identity provider failure');
      return sendError(
        reply,
        new CognitoError('InternalErrorException', `Internal error; quote request id ${request.id}.`),
      );
    });

    scope.post(IDENTITY_PATH, async (request, reply) => {
      reply.header('x-amzn-requestid', request.id);
      const target = String(request.headers['x-amz-target'] ?? '');
      const name = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
      const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
      if (!operation) {
        throw name
          ? new CognitoError(
              'UnsupportedOperationException',
              `${name} is not supported by Scrub's built-in user pool. Supported: ${supportedOperations.join(', ')}.`,
            )
          : new CognitoError(
              'UnknownOperationException',
              `Name the operation in X-Amz-Target: ${TARGET_PREFIX}<Operation>.`,
            );
      }
      const parsed = operation.input.safeParse(request.body ?? {});
      if (!parsed.success)
        throw new CognitoError('InvalidParameterException', validationMessage(parsed.error));
      const answer = await operation.run(pool, parsed.data as never, { address: request.ip });
      return reply.header('content-type', CONTENT_TYPE).send(JSON.stringify(answer));
    });

    scope.get(jwksPath(pool.userPoolId), async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').send(pool.jwks),
    );
  });
}
