import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { PoolKeys } from './keys.js';

export type TokenUse = 'id' | 'access';

export interface TokenSubject {
  sub: string;
  email: string;
  emailVerified: boolean;
  attributes: Record<string, string>;
  groups: string[];
}

export interface TokenSession {
  originJti: string;
  authTime: Date;
  clientId: string;
}

export interface SignedTokens {
  IdToken: string;
  AccessToken: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
}

/** ID and access tokens shaped like Cognito's: the same claims, RS256, the pool's `kid` in the header. */
export async function signTokens(
  keys: PoolKeys,
  issuer: string,
  subject: TokenSubject,
  session: TokenSession,
  now: Date,
  ttlSeconds: number,
): Promise<SignedTokens> {
  const iat = Math.floor(now.getTime() / 1000);
  const common = {
    sub: subject.sub,
    ...(subject.groups.length > 0 ? { 'cognito:groups': subject.groups } : {}),
    iss: issuer,
    origin_jti: session.originJti,
    event_id: randomUUID(),
    auth_time: Math.floor(session.authTime.getTime() / 1000),
    iat,
    exp: iat + ttlSeconds,
  };
  const sign = (payload: JWTPayload) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: keys.kid }).sign(keys.privateKey);
  const [IdToken, AccessToken] = await Promise.all([
    sign({
      ...common,
      ...subject.attributes,
      email: subject.email,
      email_verified: subject.emailVerified,
      'cognito:username': subject.sub,
      aud: session.clientId,
      token_use: 'id',
      jti: randomUUID(),
    }),
    sign({
      ...common,
      client_id: session.clientId,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      jti: randomUUID(),
      username: subject.sub,
    }),
  ]);
  return { IdToken, AccessToken, ExpiresIn: ttlSeconds, TokenType: 'Bearer' };
}

/** What verifies this pool's tokens: its issuer, its app client, and its public keys. */
export interface VerificationMaterial {
  issuer: string;
  clientId: string;
  /** The JWKS served at `<issuer>/.well-known/jwks.json`, or a jose key getter for it. */
  jwks: JSONWebKeySet | JWTVerifyGetKey;
}

export interface VerifiedToken {
  use: TokenUse;
  sub: string;
  originJti: string | null;
  groups: string[];
  payload: JWTPayload;
}

/** Why a token was refused: `expired` tokens can be refreshed, `invalid` ones cannot. */
export class TokenRejected extends Error {
  override name = 'TokenRejected';

  constructor(
    readonly reason: 'expired' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Verifies a token of this pool the way a resource server verifies Cognito's: RS256 only (so
 * `alg: none` and HMAC tricks fail), a key from the JWKS (so another key's signature fails), the
 * issuer, `exp`, `token_use`, and the app client (`aud` for ID tokens, `client_id` for access
 * tokens). Revocation is the pool's business: see `IdentityPool.verifyToken`.
 */
export async function verifyIdentityToken(
  token: string,
  material: VerificationMaterial,
  use: TokenUse,
  currentDate?: Date,
): Promise<VerifiedToken> {
  const { jwks } = material;
  const key = typeof jwks === 'function' ? jwks : createLocalJWKSet(jwks);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      issuer: material.issuer,
      requiredClaims: ['exp', 'iat', 'sub'],
      ...(currentDate ? { currentDate } : {}),
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired)
      throw new TokenRejected('expired', `${use === 'id' ? 'ID' : 'Access'} Token has expired`);
    if (error instanceof errors.JOSEError)
      throw new TokenRejected('invalid', `Invalid ${use === 'id' ? 'ID' : 'Access'} Token`);
    throw error;
  }
  const client = use === 'id' ? payload.aud : payload.client_id;
  if (payload.token_use !== use || client !== material.clientId || typeof payload.sub !== 'string') {
    throw new TokenRejected('invalid', `Invalid ${use === 'id' ? 'ID' : 'Access'} Token`);
  }
  const groups = payload['cognito:groups'];
  return {
    use,
    sub: payload.sub,
    originJti: typeof payload.origin_jti === 'string' ? payload.origin_jti : null,
    groups: Array.isArray(groups) ? groups.filter((x): x is string => typeof x === 'string') : [],
    payload,
  };
}
