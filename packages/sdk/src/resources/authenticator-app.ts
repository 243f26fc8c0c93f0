import { toAuthError } from '../auth/auth-errors.js';
import { type AuthenticatorSetup, authenticatorUri } from '../auth/mfa-sign-in.js';
import type { SessionManager } from '../auth/session-manager.js';
import { decodeClaims, type StoredSession } from '../auth/stored-session.js';
import { NotSignedInError } from '../errors.js';

export type { AuthenticatorSetup };

/**
 * The signed-in person's authenticator app (TOTP), by Cognito's own calls, so it works the same
 * against the built-in pool and an Amazon Cognito pool (whose MFA setting must be "optional" or
 * "required", with authenticator apps allowed): `setUp` (AssociateSoftwareToken), `confirm`
 * (VerifySoftwareToken, then SetUserMFAPreference), `disable`, `status` (GetUser).
 */
export class AuthenticatorApp {
  readonly #sessions: SessionManager;

  constructor(sessions: SessionManager) {
    this.#sessions = sessions;
  }

  /** Whether sign-in asks this person for a code. */
  async status(): Promise<{ enabled: boolean }> {
    const answer = await this.#call('GetUser', {});
    const list = Array.isArray(answer.UserMFASettingList) ? answer.UserMFASettingList : [];
    return { enabled: list.includes('SOFTWARE_TOKEN_MFA') };
  }

  /** A new secret to add to an app; nothing changes until `confirm` gets a code from it. */
  async setUp(): Promise<AuthenticatorSetup> {
    const session = await this.#session();
    const answer = await this.#call('AssociateSoftwareToken', {}, session);
    const secret = String(answer.SecretCode ?? '');
    const email = decodeClaims(session.idToken).email;
    return { secret, uri: authenticatorUri(secret, typeof email === 'string' ? email : session.username) };
  }

  /**
   * Checks a code from the app, then turns codes on at sign-in. `recoveryCodes`: single-use codes
   * to keep somewhere safe, shown this once (the built-in pool's; null with Amazon Cognito, which
   * has none: there, a lost phone is an admin's reset).
   */
  async confirm(params: { code: string; deviceName?: string }): Promise<{ recoveryCodes: string[] | null }> {
    const answer = await this.#call('VerifySoftwareToken', {
      UserCode: params.code.trim(),
      FriendlyDeviceName: params.deviceName ?? 'Authenticator app',
    });
    await this.#call('SetUserMFAPreference', {
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    const codes = answer.RecoveryCodes;
    return {
      recoveryCodes: Array.isArray(codes) ? codes.filter((c): c is string => typeof c === 'string') : null,
    };
  }

  /** Stops asking for codes at sign-in (refused where the person's role requires them). */
  async disable(): Promise<void> {
    await this.#call('SetUserMFAPreference', {
      SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
    });
  }

  async #session(): Promise<StoredSession> {
    const session = await this.#sessions.fresh();
    if (!session) throw new NotSignedInError();
    return session;
  }

  async #call(operation: string, body: Record<string, unknown>, known?: StoredSession) {
    const session = known ?? (await this.#session());
    try {
      return await this.#sessions.call(session.identity, operation, {
        ...body,
        AccessToken: session.accessToken,
      });
    } catch (error) {
      throw toAuthError(error, 'mfa', session.identity.endpoint);
    }
  }
}
