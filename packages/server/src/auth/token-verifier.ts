import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { ApiError } from '../errors/api-error.js';

/** Who an ID token says the caller is. */
export interface IdTokenIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  groups: string[];
  /** `iat` in seconds: tokens issued before the account's `tokens_valid_after` are refused. */
  issuedAt?: number;
  /** `auth_time` in seconds: when the person signed in. */
  authTime?: number;
}

export interface TokenVerifierOptions {
  /** `iss` of every accepted token: `https://cognito-idp.<region>.amazonaws.com/<poolId>`, or the built-in pool's. */
  issuer: string;
  /** The app client id: an ID token's `aud`. */
  audience: string;
  /** The pool's public keys: a JWKS URL (fetched and cached), or a key getter (the built-in pool, tests). */
  jwks: URL | JWTVerifyGetKey;
  /** Seconds of clock difference forgiven on `exp` and `iat`. */
  clockToleranceSeconds?: number;
}

export type TokenVerifier = (token: string) => Promise<IdTokenIdentity>;

export function cognitoIssuer(region: string, userPoolId: string): string {
  return `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
}

const rejected = (message: string) => new ApiError('unauthorized', message);

/** Why a token failed, said plainly and without echoing anything from the token. */
function explain(error: unknown): ApiError {
  if (error instanceof errors.JWTExpired) {
    return new ApiError(
      'token_expired',
      'The ID token has expired. Refresh the session and send the new ID token.',
    );
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return rejected('The ID token is not signed with RS256, the only algorithm this service accepts.');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return rejected("The ID token's signature does not match any key of this service's identity provider.");
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return rejected('The ID token was issued by another identity provider.');
    if (error.claim === 'iat' || error.claim === 'nbf') return rejected('The ID token is not valid yet.');
    return rejected(
      `The ID token's "${error.claim}" claim is ${error.reason === 'missing' ? 'missing' : 'invalid'}.`,
    );
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  ) {
    return rejected('The bearer token is malformed: it is not a signed JWT.');
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return new ApiError(
      'service_unavailable',
      "The identity provider's signing keys cannot be read right now. Try again.",
    );
  }
  if (error instanceof errors.JOSEError) return rejected('The ID token cannot be verified.');
  throw error;
}

/**
 * A token whose `iat` is later than now (beyond the clock tolerance) was not issued by an honest
 * clock: jose checks `iat` only when asked for a maximum age, so it is checked here.
 */
export function assertNotIssuedInFuture(iat: unknown, toleranceSeconds: number, now = Date.now()): void {
  if (typeof iat === 'number' && iat > now / 1000 + toleranceSeconds) {
    throw rejected('The ID token is not valid yet: it says it was issued in the future.');
  }
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function audienceOf(payload: JWTPayload): string[] {
  return typeof payload.aud === 'string' ? [payload.aud] : stringArray(payload.aud);
}

/**
 * Verifies Cognito-style ID tokens: RS256 only, the configured issuer, `token_use: id`, the app
 * client as audience, not expired. The same code serves the built-in pool and Amazon Cognito;
 * only the options differ.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const keys = options.jwks instanceof URL ? createRemoteJWKSet(options.jwks) : options.jwks;
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        algorithms: ['RS256'],
        issuer: options.issuer,
        clockTolerance: options.clockToleranceSeconds ?? 5,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      throw explain(error);
    }
    assertNotIssuedInFuture(payload.iat, options.clockToleranceSeconds ?? 5);
    if (payload.token_use === 'access') {
      throw rejected('This is an access token. Send the ID token as the bearer token.');
    }
    if (payload.token_use !== 'id') throw rejected('The bearer token is not an ID token.');
    if (!audienceOf(payload).includes(options.audience)) {
      throw rejected('The ID token was issued for another app client.');
    }
    const { sub, email } = payload;
    if (typeof sub !== 'string' || sub === '') throw rejected('The ID token has no subject.');
    if (typeof email !== 'string' || email === '') throw rejected('The ID token has no e-mail address.');
    return {
      sub,
      email,
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      name: typeof payload.name === 'string' && payload.name.trim() !== '' ? payload.name.trim() : null,
      groups: stringArray(payload['cognito:groups']),
      ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {}),
      ...(typeof payload.auth_time === 'number' ? { authTime: payload.auth_time } : {}),
    };
  };
}
