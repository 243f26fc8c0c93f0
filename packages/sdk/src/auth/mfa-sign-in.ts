import type { CognitoUser } from 'amazon-cognito-identity-js';
import { AuthError, ScrubError } from '../errors.js';

/** What to scan or type into an authenticator app: the base32 secret and its `otpauth://` address (for a QR code). */
export interface AuthenticatorSetup {
  secret: string;
  uri: string;
}

/** The second step of a sign-in, as the caller answers it. */
export interface SecondFactor {
  /**
   * Asked when the account signs in with an authenticator code: the app's 6-digit code, or one of
   * the recovery codes. Asked again (`retry: true`) after a wrong code, up to three times.
   */
  mfaCode?: (attempt: { retry: boolean }) => Promise<string>;
  /**
   * Asked when the account's role requires an authenticator and none is set up: add the secret to
   * an app, then give its current code. Sign-in goes on with codes required from then on.
   */
  enrolAuthenticator?: (setup: AuthenticatorSetup) => Promise<string>;
}

const MAX_CODE_ATTEMPTS = 3;

export const mfaMessages = {
  codeRequired: 'This account signs in with a code from an authenticator app: enter the code.',
  setupRequired: 'Your role requires an authenticator app: set one up to sign in.',
} as const;

/** `otpauth://totp/Scrub:<email>?secret=...&issuer=Scrub`, what authenticator apps read from a QR code. */
export function authenticatorUri(secret: string, account: string): string {
  const label = encodeURIComponent(`Scrub:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=Scrub&algorithm=SHA1&digits=6&period=30`;
}

type Done = (error: unknown) => void;

/** A failure of the caller's own callback (a prompt refused): signIn throws `original` unchanged. */
export class CallerFailure extends ScrubError {
  constructor(readonly original: unknown) {
    super(original instanceof Error ? original.message : String(original));
  }
}

const ask = <T>(question: () => Promise<T>) =>
  question().catch((error: unknown) => {
    throw new CallerFailure(error);
  });

const isCodeMismatch = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'CodeMismatchException';

/** SOFTWARE_TOKEN_MFA: sends the caller's code, asking again after a wrong one. */
export async function answerCode(user: CognitoUser, factor: SecondFactor, done: Done): Promise<void> {
  if (!factor.mfaCode) return done(new AuthError(mfaMessages.codeRequired, 'SOFTWARE_TOKEN_MFA'));
  for (let attempt = 0; ; attempt++) {
    try {
      const { mfaCode } = factor;
      const code = (await ask(() => mfaCode({ retry: attempt > 0 }))).trim();
      await new Promise((resolve, reject) =>
        user.sendMFACode(code, { onSuccess: resolve, onFailure: reject }, 'SOFTWARE_TOKEN_MFA'),
      );
      return done(undefined);
    } catch (error) {
      if (!isCodeMismatch(error) || attempt + 1 >= MAX_CODE_ATTEMPTS) return done(error);
    }
  }
}

/** MFA_SETUP: a new secret, the caller's first code from it, then the sign-in completes. */
export async function enrolDuringSignIn(
  user: CognitoUser,
  account: string,
  factor: SecondFactor,
  done: Done,
): Promise<void> {
  if (!factor.enrolAuthenticator) return done(new AuthError(mfaMessages.setupRequired, 'MFA_SETUP'));
  try {
    const secret = await new Promise<string>((resolve, reject) =>
      user.associateSoftwareToken({ associateSecretCode: resolve, onFailure: reject }),
    );
    const { enrolAuthenticator } = factor;
    const setup = { secret, uri: authenticatorUri(secret, account) };
    const code = (await ask(() => enrolAuthenticator(setup))).trim();
    await new Promise((resolve, reject) =>
      user.verifySoftwareToken(code, 'Authenticator app', { onSuccess: resolve, onFailure: reject }),
    );
    done(undefined);
  } catch (error) {
    done(error);
  }
}
