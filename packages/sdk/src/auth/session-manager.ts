import { AuthError, SessionExpiredError } from '../errors.js';
import { toAuthError } from './auth-errors.js';
import type { IdentityCaller } from './identity-client.js';
import {
  clearStoredSession,
  expiresWithin,
  readStoredSession,
  type StoredSession,
  storeTokens,
} from './stored-session.js';
import type { TokenStorage } from './token-storage.js';

/** Refresh a little before expiry, so a request is not refused on its way to the API. */
const REFRESH_MARGIN_SECONDS = 30;

/**
 * Keeps the stored session usable: reads it from storage on every use (another process, or
 * another tab, may have signed in or out), refreshes it before it expires, and removes it when the
 * identity provider refuses the refresh token.
 */
export class SessionManager {
  #refreshing: Promise<StoredSession> | undefined;

  constructor(
    readonly storage: TokenStorage,
    readonly call: IdentityCaller,
  ) {}

  stored(): StoredSession | null {
    return readStoredSession(this.storage);
  }

  /** The stored session with tokens good for at least a little while; null when nobody is signed in. */
  async fresh(): Promise<StoredSession | null> {
    const session = this.stored();
    if (!session) return null;
    return expiresWithin(session, REFRESH_MARGIN_SECONDS) ? this.refresh(session) : session;
  }

  /**
   * New ID and access tokens from the refresh token. Concurrent callers share one refresh. A refused
   * refresh token (revoked, expired, its user gone) removes the session and throws
   * SessionExpiredError; an unreachable provider leaves it in place.
   */
  refresh(session: StoredSession): Promise<StoredSession> {
    this.#refreshing ??= this.#refresh(session).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  forget(): void {
    clearStoredSession(this.storage);
  }

  async #refresh(session: StoredSession): Promise<StoredSession> {
    if (!session.refreshToken) {
      this.forget();
      throw new SessionExpiredError();
    }
    let answer: Record<string, unknown>;
    try {
      answer = await this.call(session.identity, 'InitiateAuth', {
        ClientId: session.identity.clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: session.refreshToken },
      });
    } catch (error) {
      const mapped = toAuthError(error, 'refresh', session.identity.endpoint);
      if (mapped instanceof SessionExpiredError) this.forget();
      throw mapped;
    }
    const result = (answer.AuthenticationResult ?? {}) as Record<string, unknown>;
    const { IdToken, AccessToken, RefreshToken } = result;
    if (typeof IdToken !== 'string' || typeof AccessToken !== 'string') {
      throw new AuthError('The identity provider answered a refresh without tokens.', 'invalid_response');
    }
    return storeTokens(this.storage, session.identity, session.username, {
      idToken: IdToken,
      accessToken: AccessToken,
      // Cognito keeps the refresh token unless rotation is on; then it sends the new one.
      refreshToken: typeof RefreshToken === 'string' ? RefreshToken : session.refreshToken,
    });
  }
}
