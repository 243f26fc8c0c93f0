import type * as Cognito from 'amazon-cognito-identity-js';
import { type AuthOperation, authMessages, toAuthError } from '../auth/auth-errors.js';
import { answerCode, CallerFailure, enrolDuringSignIn, type SecondFactor } from '../auth/mfa-sign-in.js';
import type { SessionManager } from '../auth/session-manager.js';
import {
  decodeClaims,
  type IdentitySettings,
  identitySettings,
  removeUserTokens,
  type StoredSession,
  storeIdentity,
  storeTokens,
  tokenExpiry,
} from '../auth/stored-session.js';
import { MemoryTokenStorage } from '../auth/token-storage.js';
import type { RequestOptions, Scrub } from '../client.js';
import { APIResource } from '../core/resource.js';
import { AuthError, IdentityNotConfiguredError, NotSignedInError } from '../errors.js';
import { AuthenticatorApp } from './authenticator-app.js';

type CognitoModule = typeof Cognito;

export interface SignUpParams {
  /** The sign-in name, in any case. */
  email: string;
  /** Checked against the pool's policy (the built-in pool: 8+ characters, lowercase, uppercase, a digit). */
  password: string;
  name?: string;
}

/** Where a code was sent, masked as the provider shows it: `p***@e***.com`. */
export interface CodeDelivery {
  destination: string;
  medium: string;
}

export interface SignUpResult {
  /** The new user's `sub`. */
  userId: string;
  /** False until the e-mailed code is entered with `confirmSignUp`. */
  confirmed: boolean;
  codeDelivery: CodeDelivery | null;
}

/** The signed-in person, from the ID token's claims, and the token itself. */
export interface AuthSession {
  userId: string;
  email: string;
  emailVerified: boolean;
  name: string | undefined;
  /** `cognito:groups`: `User`, `Agency`, `Admin`, `Super Admin`. */
  groups: string[];
  /** Send as `Authorization: Bearer <idToken>`; the SDK does so on its own calls. */
  idToken: string;
  /** When the ID token expires; `session()` and every call refresh it before then. */
  expiresAt: Date;
}

interface Pool {
  cognito: CognitoModule;
  pool: Cognito.CognitoUserPool;
  identity: IdentitySettings;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function toAuthSession(session: StoredSession): AuthSession {
  const claims = decodeClaims(session.idToken);
  const groups = claims['cognito:groups'];
  return {
    userId: text(claims.sub) ?? session.username,
    email: text(claims.email) ?? '',
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    name: text(claims.name),
    groups: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : [],
    idToken: session.idToken,
    expiresAt: tokenExpiry(session.idToken),
  };
}

function delivery(details: unknown): CodeDelivery | null {
  const fields = (details ?? {}) as Record<string, unknown>;
  const destination = text(fields.Destination);
  return destination ? { destination, medium: text(fields.DeliveryMedium) ?? 'EMAIL' } : null;
}

/**
 * Signing up and in, on amazon-cognito-identity-js, against whichever user pool `GET /config`
 * names: the service's built-in pool, or an Amazon Cognito pool. Nothing here branches on which.
 * The session lives in the client's `tokenStorage`.
 */
export class Auth extends APIResource {
  readonly #sessions: SessionManager;
  #identity: Promise<IdentitySettings> | undefined;
  /** The signed-in person's authenticator app: set up, confirm, disable. */
  readonly authenticator: AuthenticatorApp;

  constructor(client: Scrub, sessions: SessionManager) {
    super(client);
    this.#sessions = sessions;
    this.authenticator = new AuthenticatorApp(sessions);
  }

  /** Creates an unconfirmed account and e-mails a 6-digit code; the e-mail is the sign-in name. */
  async signUp(params: SignUpParams, options?: RequestOptions): Promise<SignUpResult> {
    const { cognito, pool, identity } = await this.#pool(options);
    const email = params.email.trim();
    const attributes = [new cognito.CognitoUserAttribute({ Name: 'email', Value: email })];
    const name = params.name?.trim();
    if (name) attributes.push(new cognito.CognitoUserAttribute({ Name: 'name', Value: name }));
    const result = await this.#call<Cognito.ISignUpResult>('signUp', identity, (done) =>
      pool.signUp(email, params.password, attributes, [], done),
    );
    return {
      userId: result.userSub,
      confirmed: result.userConfirmed,
      codeDelivery: delivery(result.codeDeliveryDetails),
    };
  }

  /** Confirms the e-mail with the code sent at sign-up. */
  async confirmSignUp(params: { email: string; code: string }, options?: RequestOptions): Promise<void> {
    const { user, identity } = await this.#user(params.email, options);
    await this.#call('confirmSignUp', identity, (done) =>
      user.confirmRegistration(params.code.trim(), true, done),
    );
  }

  /** Sends a new sign-up code; it replaces the previous one. */
  async resendCode(params: { email: string }, options?: RequestOptions): Promise<CodeDelivery | null> {
    const { user, identity } = await this.#user(params.email, options);
    const result = await this.#call<{ CodeDeliveryDetails?: unknown }>('resendCode', identity, (done) =>
      user.resendConfirmationCode(done),
    );
    return delivery(result?.CodeDeliveryDetails);
  }

  /**
   * Signs in with SRP (the password never leaves this machine) and stores the session. A session
   * already stored is replaced, and revoked when it can be. An account with an authenticator app
   * is asked for a code by `mfaCode`; one whose role requires it and has none, to set one up
   * (`enrolAuthenticator`). Without them, such a sign-in fails with an AuthError whose `code` is
   * `SOFTWARE_TOKEN_MFA` or `MFA_SETUP`.
   */
  async signIn(
    params: { email: string; password: string } & SecondFactor,
    options?: RequestOptions,
  ): Promise<AuthSession> {
    const { cognito, pool, identity } = await this.#pool(options);
    const storage = this.#sessions.storage;
    const previous = this.#sessions.stored();
    const username = params.email.trim();
    const user = new cognito.CognitoUser({ Username: username, Pool: pool, Storage: storage });
    const unsupported = (challenge: string) =>
      new AuthError(`The ${challenge} sign-in challenge is not supported by this client.`, challenge);
    await this.#call('signIn', identity, (done) =>
      user.authenticateUser(
        new cognito.AuthenticationDetails({ Username: username, Password: params.password }),
        {
          onSuccess: () => done(undefined),
          onFailure: (error: unknown) => done(error),
          newPasswordRequired: () =>
            done(new AuthError(authMessages.newPasswordRequired, 'NEW_PASSWORD_REQUIRED')),
          mfaRequired: (challenge) => done(unsupported(challenge)),
          totpRequired: () => void answerCode(user, params, done),
          mfaSetup: () => void enrolDuringSignIn(user, username, params, done),
          selectMFAType: (challenge) => done(unsupported(challenge)),
          customChallenge: () => done(unsupported('CUSTOM_CHALLENGE')),
        },
      ),
    ).catch((error: unknown) => {
      throw error instanceof CallerFailure ? error.original : error;
    });
    storeIdentity(storage, identity);
    const session = this.#sessions.stored();
    if (!session) {
      throw new AuthError('Authentication succeeded but no token was stored', 'no_token_stored');
    }
    if (previous && previous.refreshToken !== session.refreshToken) {
      if (previous.username !== session.username || previous.identity.clientId !== identity.clientId) {
        removeUserTokens(storage, previous.identity.clientId, previous.username);
      }
      // Best effort: the new session is in place whatever the old one's fate.
      await this.#revoke(previous).catch(() => undefined);
    }
    return toAuthSession(session);
  }

  /**
   * The address of the pool's hosted sign-in page (Amazon Cognito's, when `GET /config` names its
   * domain), asking for an ID token (`response_type=token`, scope `email openid profile`) to be
   * sent back to `redirectUri` in the address fragment; null when there is no hosted sign-in (the
   * built-in pool has none). Pass what it returns to `adoptHostedSignIn`.
   */
  async hostedSignInUrl(params: { redirectUri: string; state?: string }, options?: RequestOptions) {
    const hosted = (await this.client.config(options)).identity?.hosted_ui;
    if (!hosted) return null;
    const query = new URLSearchParams({
      response_type: 'token',
      client_id: hosted.client_id,
      redirect_uri: params.redirectUri,
      scope: 'email openid profile',
    });
    if (params.state) query.set('state', params.state);
    return `${hosted.domain}/oauth2/authorize?${query}`;
  }

  /**
   * Finishes a hosted sign-in: reads `id_token` and `access_token` from the callback's fragment
   * (`#id_token=...&access_token=...`, with or without the `#`), stores them as the session, and has
   * the API check them (`GET /user`) before answering it. An `error` in the fragment, a missing
   * token, or tokens the API refuses store nothing. Such a session has no refresh token: it ends
   * when the ID token expires (`SessionExpiredError`), and the person signs in again.
   */
  async adoptHostedSignIn(fragment: string, options?: RequestOptions): Promise<AuthSession> {
    const answer = new URLSearchParams(fragment.replace(/^#/, ''));
    const failure = answer.get('error_description') ?? answer.get('error');
    if (failure) throw new AuthError(failure, answer.get('error') ?? 'hosted_sign_in_failed');
    const idToken = answer.get('id_token');
    const accessToken = answer.get('access_token');
    if (!idToken || !accessToken) {
      throw new AuthError('No ID token in callback', 'no_token_in_callback');
    }
    const identity = await this.#settings(options);
    const claims = decodeClaims(idToken);
    const username = text(claims['cognito:username']) ?? text(claims.sub);
    if (!username || claims.token_use !== 'id') {
      throw new AuthError('The callback did not carry an ID token.', 'no_token_in_callback');
    }
    const previous = this.#sessions.stored();
    const session = storeTokens(this.#sessions.storage, identity, username, {
      idToken,
      accessToken,
      refreshToken: '',
    });
    try {
      // The API verifies the token's signature, issuer and audience; the client only read it.
      await this.client.account.get(options);
    } catch (error) {
      this.#sessions.forget();
      throw error;
    }
    if (previous && (previous.username !== username || previous.identity.clientId !== identity.clientId)) {
      removeUserTokens(this.#sessions.storage, previous.identity.clientId, previous.username);
    }
    return toAuthSession(session);
  }

  /**
   * Signs out: revokes the session's refresh token (and with it the ID and access tokens of this
   * sign-in), or with `everywhere` every session of the user on every device, then forgets it. It
   * is forgotten locally even when that fails (the provider cannot be reached, or, for
   * `everywhere`, the session has expired); the error then says so.
   */
  async signOut(params: { everywhere?: boolean } = {}): Promise<void> {
    const stored = this.#sessions.stored();
    if (!stored) return;
    try {
      if (params.everywhere) {
        const session = await this.#sessions.fresh();
        if (session)
          await this.#sessions.call(session.identity, 'GlobalSignOut', { AccessToken: session.accessToken });
      } else {
        await this.#revoke(stored);
      }
    } catch (error) {
      const mapped = toAuthError(error, 'signOut', stored.identity.endpoint);
      // This session already revoked or expired: signing it out is done. Signing out everywhere
      // needs a live session, so there the failure is reported.
      const alreadyOver = mapped instanceof AuthError && mapped.code === 'NotAuthorizedException';
      if (params.everywhere || !alreadyOver) throw mapped;
    } finally {
      this.#sessions.forget();
    }
  }

  /** E-mails a code to reset a forgotten password. */
  async forgotPassword(params: { email: string }, options?: RequestOptions): Promise<CodeDelivery | null> {
    const { user, identity } = await this.#user(params.email, options);
    const result = await this.#call<{ CodeDeliveryDetails?: unknown }>('forgotPassword', identity, (done) =>
      user.forgotPassword({
        onSuccess: (data: { CodeDeliveryDetails?: unknown }) => done(null, data),
        onFailure: done,
      }),
    );
    return delivery(result?.CodeDeliveryDetails);
  }

  /** Sets a new password with the e-mailed code. The provider signs the user out everywhere. */
  async confirmForgotPassword(
    params: { email: string; code: string; newPassword: string },
    options?: RequestOptions,
  ): Promise<void> {
    const { user, identity } = await this.#user(params.email, options);
    await this.#call('confirmForgotPassword', identity, (done) =>
      user.confirmPassword(params.code.trim(), params.newPassword, {
        onSuccess: () => done(null),
        onFailure: done,
      }),
    );
  }

  /** Changes the signed-in person's password; needs their current one. */
  async changePassword(params: { oldPassword: string; newPassword: string }): Promise<void> {
    const session = await this.#sessions.fresh();
    if (!session) throw new NotSignedInError();
    const { cognito, pool, identity } = await this.#pool(undefined, session.identity);
    // A throwaway storage: the library re-caches the tokens it is given, and the real storage has them.
    const user = new cognito.CognitoUser({
      Username: session.username,
      Pool: pool,
      Storage: new MemoryTokenStorage(),
    });
    user.setSignInUserSession(
      new cognito.CognitoUserSession({
        IdToken: new cognito.CognitoIdToken({ IdToken: session.idToken }),
        AccessToken: new cognito.CognitoAccessToken({ AccessToken: session.accessToken }),
        RefreshToken: new cognito.CognitoRefreshToken({ RefreshToken: session.refreshToken }),
      }),
    );
    await this.#call('changePassword', identity, (done) =>
      user.changePassword(params.oldPassword, params.newPassword, done),
    );
  }

  /**
   * The current session, its ID token refreshed first when it has expired (or is about to); null
   * when nobody is signed in. Throws SessionExpiredError, having removed the session, when the
   * refresh is refused.
   */
  async session(): Promise<AuthSession | null> {
    const session = await this.#sessions.fresh();
    return session ? toAuthSession(session) : null;
  }

  /** A valid ID token, refreshed when needed; NotSignedInError when nobody is signed in. */
  async getIdToken(): Promise<string> {
    const session = await this.#sessions.fresh();
    if (!session) throw new NotSignedInError();
    return session.idToken;
  }

  /** Whether a session is stored. It may still need a refresh, which may be refused. No request is made. */
  hasSession(): boolean {
    return this.#sessions.stored() !== null;
  }

  async #revoke(session: StoredSession): Promise<void> {
    // Only tokens of a sign-in with revocation on carry origin_jti (as the library decides, too).
    if (!session.refreshToken || !decodeClaims(session.accessToken).origin_jti) return;
    await this.#sessions.call(session.identity, 'RevokeToken', {
      Token: session.refreshToken,
      ClientId: session.identity.clientId,
    });
  }

  /** The identity provider, from `GET /config` once per client (again after a failure). */
  #settings(options?: RequestOptions): Promise<IdentitySettings> {
    if (!this.#identity) {
      const pending = this.client.config(options).then((config) => {
        if (!config.identity) throw new IdentityNotConfiguredError();
        return identitySettings(config.identity);
      });
      pending.catch(() => {
        if (this.#identity === pending) this.#identity = undefined;
      });
      this.#identity = pending;
    }
    return this.#identity;
  }

  async #pool(options?: RequestOptions, known?: IdentitySettings): Promise<Pool> {
    const identity = known ?? (await this.#settings(options));
    // Loaded on first use, so clients that only use API keys never load it.
    const cognito = await import('amazon-cognito-identity-js');
    try {
      const pool = new cognito.CognitoUserPool({
        UserPoolId: identity.userPoolId,
        ClientId: identity.clientId,
        endpoint: identity.endpoint,
        Storage: this.#sessions.storage,
      });
      return { cognito, pool, identity };
    } catch (error) {
      throw new AuthError(
        `The identity settings of ${this.client.baseURL}/config are unusable: ${error instanceof Error ? error.message : String(error)}`,
        'invalid_identity_config',
      );
    }
  }

  /** A user object for the calls made before signing in; they keep nothing, so nothing is stored. */
  async #user(email: string, options?: RequestOptions) {
    const { cognito, pool, identity } = await this.#pool(options);
    const user = new cognito.CognitoUser({
      Username: email.trim(),
      Pool: pool,
      Storage: new MemoryTokenStorage(),
    });
    return { user, identity };
  }

  /** Runs one callback-style library call as a promise, its failure mapped to a typed error. */
  #call<T = unknown>(
    operation: AuthOperation,
    identity: IdentitySettings,
    start: (done: (error: unknown, value?: T) => void) => void,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      start((error, value) =>
        error ? reject(toAuthError(error, operation, identity.endpoint)) : resolve(value as T),
      );
    });
  }
}
