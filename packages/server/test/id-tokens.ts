import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { createTokenVerifier, type TokenVerifier } from '../src/auth/token-verifier.js';

export const TEST_ISSUER = 'http://localhost:8787/us-east-1_TestPool1';
export const TEST_CLIENT_ID = 'testclient0123456789';

export interface TokenOptions {
  /** Seconds from now; negative for a token that has expired. */
  expiresIn?: number;
  issuer?: string;
  audience?: string;
  tokenUse?: 'id' | 'access';
  /** Seconds from now of `iat`; default a minute ago. */
  issuedAt?: number;
  /** Sign with a key the service does not know, under the known key id. */
  foreignKey?: boolean;
}

export interface Person {
  sub: string;
  email: string;
  groups?: string[];
  emailVerified?: boolean;
  name?: string;
}

/** A user pool of our own for tests: an RS256 key pair, its JWKS, and Cognito-shaped ID tokens. */
export async function createTestIdentity() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const kid = 'test-key-1';
  const jwks: JSONWebKeySet = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] };
  const verifier: TokenVerifier = createTokenVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_CLIENT_ID,
    jwks: createLocalJWKSet(jwks),
  });

  function claims(person: Person, options: TokenOptions): JWTPayload {
    const tokenUse = options.tokenUse ?? 'id';
    const base: JWTPayload = {
      sub: person.sub,
      token_use: tokenUse,
      ...(person.groups ? { 'cognito:groups': person.groups } : {}),
    };
    if (tokenUse === 'access')
      return {
        ...base,
        client_id: options.audience ?? TEST_CLIENT_ID,
        scope: 'aws.cognito.signin.user.admin',
      };
    return {
      ...base,
      email: person.email,
      email_verified: person.emailVerified ?? true,
      'cognito:username': person.sub,
      ...(person.name ? { name: person.name } : {}),
    };
  }

  async function token(person: Person, options: TokenOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(claims(person, options))
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(options.issuer ?? TEST_ISSUER)
      .setIssuedAt(now + (options.issuedAt ?? -60))
      .setExpirationTime(now + (options.expiresIn ?? 3600));
    if ((options.tokenUse ?? 'id') === 'id') jwt.setAudience(options.audience ?? TEST_CLIENT_ID);
    return jwt.sign(options.foreignKey ? foreign.privateKey : privateKey);
  }

  /** The same claims with `alg: none`: no signature at all. */
  function unsignedToken(person: Person): string {
    return new UnsecuredJWT(claims(person, {}))
      .setIssuer(TEST_ISSUER)
      .setAudience(TEST_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
  }

  /** HS256 with a shared secret: the algorithm-confusion attempt. */
  async function hmacToken(person: Person): Promise<string> {
    return new SignJWT(claims(person, {}))
      .setProtectedHeader({ alg: 'HS256', kid })
      .setIssuer(TEST_ISSUER)
      .setAudience(TEST_CLIENT_ID)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-secret-anyone-could-pick-0123456789'));
  }

  return { jwks, verifier, token, unsignedToken, hmacToken };
}

export type TestIdentity = Awaited<ReturnType<typeof createTestIdentity>>;
