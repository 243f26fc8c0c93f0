import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthError,
  AuthLimitExceededError,
  ExpiredCodeError,
  InvalidCodeError,
  InvalidCredentialsError,
  InvalidPasswordError,
  NotSignedInError,
  SessionExpiredError,
  UserNotConfirmedError,
  UserNotFoundError,
  UsernameExistsError,
} from '../errors.js';
import { type AuthOperation, toAuthError } from './auth-errors.js';

const ENDPOINT = 'http://localhost:8787/identity';

/** What amazon-cognito-identity-js rejects with: an Error with Cognito's exception name in `code`. */
const cognitoError = (code: string, message: string | null = null) =>
  Object.assign(new Error(message ?? 'null'), { code, name: code });

describe('toAuthError', () => {
  it.each<[AuthOperation, string, string | null, abstract new (...args: never) => Error, string]>([
    [
      'signIn',
      'UserNotConfirmedException',
      'User is not confirmed.',
      UserNotConfirmedError,
      'Please confirm your email first. Check your inbox for the verification code.',
    ],
    [
      'confirmSignUp',
      'CodeMismatchException',
      'Invalid verification code provided, please try again.',
      InvalidCodeError,
      'Invalid code. Please check and try again.',
    ],
    [
      'confirmForgotPassword',
      'ExpiredCodeException',
      'Invalid code provided, please request a code again.',
      ExpiredCodeError,
      'Code has expired. Please request a new one.',
    ],
    [
      'forgotPassword',
      'UserNotFoundException',
      'Username/client id combination not found.',
      UserNotFoundError,
      'This email does not exist in the system.',
    ],
    [
      'signIn',
      'NotAuthorizedException',
      'Incorrect username or password.',
      InvalidCredentialsError,
      'Incorrect username or password.',
    ],
    ['signIn', 'NotAuthorizedException', null, InvalidCredentialsError, 'Invalid email or password'],
    [
      'changePassword',
      'NotAuthorizedException',
      'Incorrect username or password.',
      InvalidCredentialsError,
      'Incorrect username or password.',
    ],
    [
      'signUp',
      'InvalidPasswordException',
      'Password did not conform with policy: Password not long enough',
      InvalidPasswordError,
      'Password did not conform with policy: Password not long enough',
    ],
    [
      'signUp',
      'UsernameExistsException',
      'An account with the given email already exists.',
      UsernameExistsError,
      'An account with the given email already exists.',
    ],
    [
      'resendCode',
      'LimitExceededException',
      'Attempt limit exceeded, please try after some time.',
      AuthLimitExceededError,
      'Attempt limit exceeded, please try after some time.',
    ],
    [
      'signIn',
      'TooManyRequestsException',
      null,
      AuthLimitExceededError,
      'Too many attempts. Please try again later.',
    ],
    [
      'refresh',
      'NotAuthorizedException',
      'Refresh Token has been revoked',
      SessionExpiredError,
      'Session expired',
    ],
    [
      'confirmSignUp',
      'NotAuthorizedException',
      'User cannot be confirmed. Current status is CONFIRMED',
      AuthError,
      'User cannot be confirmed. Current status is CONFIRMED',
    ],
    ['signUp', 'InternalErrorException', null, AuthError, 'Registration failed'],
    [
      'resendCode',
      'InvalidParameterException',
      null,
      AuthError,
      'Failed to resend code. Please try again later.',
    ],
    [
      'forgotPassword',
      'InvalidParameterException',
      null,
      AuthError,
      'Failed to send reset code. Please try again.',
    ],
    [
      'changePassword',
      'InvalidParameterException',
      null,
      AuthError,
      'Failed to update password. Please try again.',
    ],
  ])(
    '%s: %s becomes the right error and message, keeping the code',
    (operation, code, message, ErrorClass, shown) => {
      const error = toAuthError(cognitoError(code, message), operation, ENDPOINT);

      expect(error).toBeInstanceOf(ErrorClass);
      expect(error.message).toBe(shown);
      if (!(error instanceof SessionExpiredError)) expect(error).toMatchObject({ code });
    },
  );

  it("turns the library's network failure into a connection error naming the provider", () => {
    const error = toAuthError(cognitoError('NetworkError', 'Network error'), 'signIn', ENDPOINT);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe('Could not reach http://localhost:8787: Network error');
  });

  it("recognises the library's own 'not authenticated', and keeps SDK errors as they are", () => {
    expect(toAuthError(new Error('User is not authenticated'), 'changePassword', ENDPOINT)).toBeInstanceOf(
      NotSignedInError,
    );
    const original = new SessionExpiredError();
    expect(toAuthError(original, 'refresh', ENDPOINT)).toBe(original);
  });
});
