import {
  APIConnectionError,
  AuthError,
  AuthLimitExceededError,
  ExpiredCodeError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidPasswordError,
  NotSignedInError,
  ScrubError,
  SessionExpiredError,
  UserNotConfirmedError,
  UserNotFoundError,
  UsernameExistsError,
} from '../errors.js';

/**
 * What people read, from the product's specification (its error catalogue), spelling corrected.
 * Exported so every client (dashboard, CLI) says the same thing.
 */
export const authMessages = {
  signedUp: 'Account created successfully! Please check your email for verification code.',
  emailConfirmed: 'Email confirmed successfully!',
  codeResent: 'New verification code sent to your email!',
  resetCodeSent: 'Password reset code has been sent to your email address.',
  passwordReset: 'Password Changed Successfully!',
  passwordUpdated: 'Password Updated Successfully',
  invalidCode: 'Invalid code. Please check and try again.',
  expiredCode: 'Code has expired. Please request a new one.',
  confirmFirst: 'Please confirm your email first. Check your inbox for the verification code.',
  emailNotFound: 'This email does not exist in the system.',
  invalidCredentials: 'Invalid email or password',
  newPasswordRequired: 'New password required',
} as const;

export type AuthOperation =
  | 'signUp'
  | 'confirmSignUp'
  | 'resendCode'
  | 'signIn'
  | 'forgotPassword'
  | 'confirmForgotPassword'
  | 'changePassword'
  | 'refresh'
  | 'signOut'
  | 'mfa';

/** When the provider gives no message of its own. */
const fallbackMessages: Record<AuthOperation, string> = {
  signUp: 'Registration failed',
  confirmSignUp: 'Failed to confirm email. Please try again.',
  resendCode: 'Failed to resend code. Please try again later.',
  signIn: authMessages.invalidCredentials,
  forgotPassword: 'Failed to send reset code. Please try again.',
  confirmForgotPassword: 'Failed to reset password. Please try again.',
  changePassword: 'Failed to update password. Please try again.',
  refresh: 'Session expired',
  signOut: 'Failed to sign out. Please try again.',
  mfa: 'Failed to update the authenticator app. Please try again.',
};

const LIMIT_CODES = new Set([
  'LimitExceededException',
  'TooManyRequestsException',
  'TooManyFailedAttemptsException',
]);

/**
 * Turns what amazon-cognito-identity-js (or the SDK's own protocol calls) fail with into a typed
 * error: an `Error` whose `code` is Cognito's exception name (`NotAuthorizedException`), or
 * `NetworkError` when nothing answered. The exception name stays in `code`.
 */
export function toAuthError(error: unknown, operation: AuthOperation, endpoint: string): ScrubError {
  if (error instanceof ScrubError) return error;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  const code = typeof fields.code === 'string' && fields.code !== '' ? fields.code : undefined;
  const text = typeof fields.message === 'string' ? fields.message.trim() : '';
  // The library builds `new Error(data.message || null)`, whose message is the string "null".
  const said = text !== '' && text !== 'null' ? text : undefined;
  const options = { cause: error };

  if (code === 'NetworkError') {
    return new APIConnectionError(
      `Could not reach ${new URL(endpoint).origin}: ${said ?? 'network error'}`,
      options,
    );
  }
  if (code === undefined) {
    if (said === 'User is not authenticated') return new NotSignedInError();
    return new AuthError(said ?? fallbackMessages[operation], 'client_error', options);
  }
  if (operation === 'refresh' && (code === 'NotAuthorizedException' || code === 'UserNotFoundException')) {
    return new SessionExpiredError(options);
  }
  switch (code) {
    case 'UserNotConfirmedException':
      return new UserNotConfirmedError(authMessages.confirmFirst, code, options);
    case 'CodeMismatchException':
    case 'EnableSoftwareTokenMFAException':
      return new InvalidCodeError(authMessages.invalidCode, code, options);
    case 'ExpiredCodeException':
      return new ExpiredCodeError(authMessages.expiredCode, code, options);
    case 'UserNotFoundException':
      return new UserNotFoundError(
        operation === 'forgotPassword' ? authMessages.emailNotFound : (said ?? authMessages.emailNotFound),
        code,
        options,
      );
    case 'NotAuthorizedException':
      if (operation === 'signIn' || operation === 'changePassword') {
        return new InvalidCredentialsError(said ?? authMessages.invalidCredentials, code, options);
      }
      return new AuthError(said ?? fallbackMessages[operation], code, options);
    case 'InvalidPasswordException':
      return new InvalidPasswordError(said ?? 'The password does not meet the requirements.', code, options);
    case 'UsernameExistsException':
      return new UsernameExistsError(said ?? 'An account with this email already exists.', code, options);
    default:
      if (LIMIT_CODES.has(code)) {
        return new AuthLimitExceededError(
          said ?? 'Too many attempts. Please try again later.',
          code,
          options,
        );
      }
      return new AuthError(said ?? fallbackMessages[operation], code, options);
  }
}
