import type { ClientConfig } from '@scrub/contract';
import type { TokenStorage } from './token-storage.js';

/** The identity provider of a deployment, as `GET /config` describes it, with its endpoint resolved. */
export interface IdentitySettings {
  provider: 'local' | 'cognito';
  region: string;
  userPoolId: string;
  clientId: string;
  /** The built-in pool's URL, or Amazon Cognito's regional endpoint when the service uses a real pool. */
  endpoint: string;
}

export function identitySettings(identity: NonNullable<ClientConfig['identity']>): IdentitySettings {
  return {
    provider: identity.provider,
    region: identity.region,
    userPoolId: identity.user_pool_id,
    clientId: identity.client_id,
    endpoint: identity.endpoint ?? `https://cognito-idp.${identity.region}.amazonaws.com/`,
  };
}

/** A session as kept in storage; `username` is the pool's immutable user name (the `sub` after SRP). */
export interface StoredSession {
  identity: IdentitySettings;
  username: string;
  idToken: string;
  accessToken: string;
  refreshToken: string;
  /** Seconds this machine's clock is ahead of the identity provider's, measured at sign-in. */
  clockDrift: number;
}

export interface Tokens {
  idToken: string;
  accessToken: string;
  refreshToken: string;
}

/**
 * The SDK's own key: which pool the stored session belongs to. With it, a stored session is found
 * and refreshed without asking the API for its configuration first, and a client that never signed
 * in knows so without any request.
 */
const IDENTITY_KEY = 'scrub.identity';
const TOKEN_NAMES = ['idToken', 'accessToken', 'refreshToken', 'clockDrift', 'userData'] as const;

/**
 * Tokens are kept in amazon-cognito-identity-js's own layout (`CognitoIdentityServiceProvider.
 * <client id>.LastAuthUser`, then `.<username>.idToken` and so on), which the library writes at
 * sign-in; code that uses the library directly on the same storage sees the same session.
 */
const prefix = (clientId: string) => `CognitoIdentityServiceProvider.${clientId}`;
const lastUserKey = (clientId: string) => `${prefix(clientId)}.LastAuthUser`;
const tokenKey = (clientId: string, username: string, name: (typeof TOKEN_NAMES)[number]) =>
  `${prefix(clientId)}.${username}.${name}`;

function parseIdentity(text: string | null): IdentitySettings | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<IdentitySettings>;
    const fields = [value.region, value.userPoolId, value.clientId, value.endpoint];
    if (fields.every((field) => typeof field === 'string' && field !== '')) return value as IdentitySettings;
  } catch {
    // A damaged entry is the same as no session.
  }
  return null;
}

export function storeIdentity(storage: TokenStorage, identity: IdentitySettings): void {
  storage.setItem(IDENTITY_KEY, JSON.stringify(identity));
}

export function readStoredSession(storage: TokenStorage): StoredSession | null {
  const identity = parseIdentity(storage.getItem(IDENTITY_KEY));
  if (!identity) return null;
  const username = storage.getItem(lastUserKey(identity.clientId));
  if (!username) return null;
  const read = (name: (typeof TOKEN_NAMES)[number]) =>
    storage.getItem(tokenKey(identity.clientId, username, name));
  const idToken = read('idToken');
  const accessToken = read('accessToken');
  if (!idToken || !accessToken) return null;
  return {
    identity,
    username,
    idToken,
    accessToken,
    refreshToken: read('refreshToken') ?? '',
    clockDrift: Number.parseInt(read('clockDrift') ?? '', 10) || 0,
  };
}

/** Stores tokens as the library does after a sign-in, clock drift included. */
export function storeTokens(
  storage: TokenStorage,
  identity: IdentitySettings,
  username: string,
  tokens: Tokens,
): StoredSession {
  const issuedAt = Math.min(numericClaim(tokens.idToken, 'iat'), numericClaim(tokens.accessToken, 'iat'));
  const clockDrift = nowSeconds() - issuedAt;
  const { clientId } = identity;
  storage.setItem(tokenKey(clientId, username, 'idToken'), tokens.idToken);
  storage.setItem(tokenKey(clientId, username, 'accessToken'), tokens.accessToken);
  storage.setItem(tokenKey(clientId, username, 'refreshToken'), tokens.refreshToken);
  storage.setItem(tokenKey(clientId, username, 'clockDrift'), String(clockDrift));
  storage.setItem(lastUserKey(clientId), username);
  storeIdentity(storage, identity);
  return { identity, username, ...tokens, clockDrift };
}

/** Removes one user's tokens, and names them as the last user no more, leaving anyone else's alone. */
export function removeUserTokens(storage: TokenStorage, clientId: string, username: string): void {
  for (const name of TOKEN_NAMES) storage.removeItem(tokenKey(clientId, username, name));
  if (storage.getItem(lastUserKey(clientId)) === username) storage.removeItem(lastUserKey(clientId));
}

/** Forgets the stored session, locally only: revoking it is the caller's business. */
export function clearStoredSession(storage: TokenStorage): void {
  const identity = parseIdentity(storage.getItem(IDENTITY_KEY));
  if (identity) {
    const username = storage.getItem(lastUserKey(identity.clientId));
    if (username) removeUserTokens(storage, identity.clientId, username);
  }
  storage.removeItem(IDENTITY_KEY);
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A JWT's claims, read without verifying: the client only needs to know what it holds and when it
 * expires; the API verifies every token it is sent. Works in browsers (atob, TextDecoder).
 */
export function decodeClaims(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1];
  if (!part) return {};
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function numericClaim(jwt: string, name: string): number {
  const value = decodeClaims(jwt)[name];
  return typeof value === 'number' ? value : 0;
}

/**
 * Whether the ID or access token expires within `marginSeconds`, on the identity provider's clock.
 * A token is expired at its `exp` (the seeds' rule); refreshing a little before spares a request
 * that would be refused on the way.
 */
export function expiresWithin(session: StoredSession, marginSeconds: number): boolean {
  const expiry = Math.min(numericClaim(session.idToken, 'exp'), numericClaim(session.accessToken, 'exp'));
  return nowSeconds() - session.clockDrift + marginSeconds >= expiry;
}

export function tokenExpiry(jwt: string): Date {
  return new Date(numericClaim(jwt, 'exp') * 1000);
}
